import ChaosTarget
import Foundation

/// The target a command works on, bound once when it starts and carried to every case
/// and sweep trial: where it comes from, how to start its workers, the variant chosen,
/// and its declaration (what it is made of). The CLI's `--target-exec`/`--variant` and
/// ChaosTesting's targets both come here; nothing later starts a worker to learn what
/// the declaration said, or reads a name back to learn where the target came from.
package struct TargetSelection: Sendable {
    /// Where a target comes from.
    package enum Origin: Sendable, Equatable {
        /// The reference app, hosted by the `chaos` executable (`chaos worker`).
        case builtIn
        /// A user's target executable (`--target-exec PATH`).
        case executable(path: String)

        /// How a report's `run.target` names it back (``RunInfo/target``).
        package init(reported name: String) {
            self = name == RunInfo.builtInTarget ? .builtIn : .executable(path: name)
        }

        /// How reports and the terminal name it: `built-in`, or the executable's path.
        package var name: String {
            switch self {
            case .builtIn: RunInfo.builtInTarget
            case let .executable(path): path
            }
        }
    }

    package var origin: Origin
    package var worker: WorkerCommand
    package var variant: String
    /// The variants it declares (empty: it takes any name).
    package var variants: [String]
    /// What it declares: its files, actions and their arguments, probes, modes, workload.
    package var declaration: TargetDeclaration
    /// What a clean first launch makes by itself, learned when a case first needs it and
    /// shared by every copy of this selection; nil in the run that learns it.
    package var cleanLaunch: CleanLaunch? = CleanLaunch()

    package init(origin: Origin, worker: WorkerCommand, variant: String, variants: [String], declaration: TargetDeclaration) {
        self.origin = origin
        self.worker = worker
        self.variant = variant
        self.variants = variants
        self.declaration = declaration
    }

    /// How reports and the terminal name it.
    package var name: String { origin.name }

    /// Why a target cannot be used: the user's mistake, or the target's failure to start.
    package enum Failure: Error, CustomStringConvertible {
        case usage(String)
        case harness(String)
        case interrupted

        package var description: String {
            switch self {
            case let .usage(text), let .harness(text): text
            case .interrupted: "interrupted"
            }
        }
    }

    package static let builtInVariants = ["hardened", "legacy"]

    /// The built-in app, hosted by the `chaos` executable at `chaos`; `declaration` is what
    /// it declares (read in the CLI's own process, where it is compiled in).
    package static func builtIn(chaos: String, variant: String?, declaration: TargetDeclaration) throws(Failure) -> TargetSelection {
        try checkVariant(variant, of: .builtIn, among: builtInVariants)
        return TargetSelection(origin: .builtIn, worker: WorkerCommand.builtIn(chaos: chaos), variant: variant ?? "hardened",
                               variants: builtInVariants, declaration: declaration)
    }

    /// The built-in app where its declaration is not compiled in (a test process, the
    /// bench): asked once, of one worker.
    package static func builtIn(chaos: String, variant: String? = nil) throws(Failure) -> TargetSelection {
        try checkVariant(variant, of: .builtIn, among: builtInVariants)
        let worker = WorkerCommand.builtIn(chaos: chaos)
        return try builtIn(chaos: chaos, variant: variant, declaration: describe(worker, origin: .builtIn, variant: variant ?? "hardened"))
    }

    /// A user's target executable, asked what it declares; a variant it does not know is
    /// the user's mistake, with the closest one.
    package static func userTarget(at executable: String, variant: String?) throws(Failure) -> TargetSelection {
        let path = URL(fileURLWithPath: executable).standardizedFileURL.path
        if let problem = Self.executableProblem(path) { throw Failure.usage("--target-exec \(path): \(problem)") }
        let origin = Origin.executable(path: path)
        let worker = WorkerCommand(executable: path, arguments: [], environment: WorkerCommand.workerEnvironment())
        let declaration = try describe(worker, origin: origin, variant: variant ?? "")
        let declared = declaration.variants ?? []
        try checkVariant(variant, of: origin, among: declared)
        return TargetSelection(origin: origin, worker: worker, variant: variant ?? declared.first ?? "default", variants: declared,
                               declaration: declaration)
    }

    /// A variant the target does not declare is the user's mistake, with the closest one
    /// (a target that declares none takes any name). The one place this is said.
    static func checkVariant(_ variant: String?, of origin: Origin, among declared: [String]) throws(Failure) {
        guard let variant, !declared.isEmpty, !declared.contains(variant) else { return }
        let hint = ClosestName.suggestion(for: variant, among: declared).map { " (did you mean '\($0)'?)" } ?? ""
        throw Failure.usage("--variant '\(variant)' is not a variant of \(origin.name)\(hint); it has: " + NameList.text(declared))
    }

    /// The target's declaration, from one worker started and stopped.
    private static func describe(_ worker: WorkerCommand, origin: Origin, variant: String) throws(Failure) -> TargetDeclaration {
        do {
            return try TargetDescription.read(worker, named: origin.name, variant: variant)
        } catch {
            if RunInterruption.requested { throw Failure.interrupted }
            throw error.cannotRun ? Failure.usage("--target-exec \(error.description)") : Failure.harness(error.description)
        }
    }

    /// Every problem of `scenarios` on this target, at its line (``ScenarioTargetCheck``).
    package func problems(_ scenarios: [Scenario]) -> [ScenarioError] {
        scenarios.flatMap { ScenarioTargetCheck.problems($0, target: declaration) }
    }

    /// Every problem of the run's target options (`--option KEY=VALUE`) on this target:
    /// an option it does not read, an empty name or value, a value it does not take.
    package func problems(options: [String: String]) -> [String] {
        options.keys.sorted().compactMap { key in
            ScenarioTargetCheck.optionProblem(key, options[key] ?? "", target: declaration).map { problem in
                "--option \(key)=\(options[key] ?? ""): \(problem.text)" + (problem.suggestion.map { " (did you mean '\($0)'?)" } ?? "")
            }
        }
    }

    /// Why `path` cannot be started as a target; nil when it can (a file this user may
    /// execute). A folder, a missing path and a file without the execute bit are all
    /// the user's to fix, and said as such.
    static func executableProblem(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "no such file" }
        if isFolder.boolValue { return "is a folder, not an executable: give the target's executable (.build/debug/NAME)" }
        guard access(path, X_OK) == 0 else { return "is not executable (chmod +x, or give the built executable)" }
        return nil
    }
}
