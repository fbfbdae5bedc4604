import ChaosTarget
import Foundation

/// The target a command works on, bound once when it starts and carried to every case
/// and sweep trial: how to start its workers, how reports name it and how a command
/// selects it again, the variant chosen, and its declaration (what it is made of, its
/// variants and scenarios among it). The CLI's `--target-exec`/`--variant`, the target a
/// command hosts itself, and ChaosTesting's targets are all selected the same way here;
/// nothing later starts a worker to learn what the declaration said.
package struct TargetSelection: Sendable {
    /// How reports and the terminal name it: the executable's path, or the name a
    /// command gives the target it hosts.
    package var name: String
    /// The `--target-exec` that selects it again; nil for the target the command hosts
    /// (a reproduce line then leaves it out).
    package var targetExec: String?
    package var worker: WorkerCommand
    package var variant: String
    /// What it declares: its files, actions and their arguments, probes, modes, workload,
    /// variants and scenarios.
    package var declaration: TargetDeclaration
    /// What a clean first launch makes by itself, learned when a case first needs it and
    /// shared by every copy of this selection; nil in the run that learns it.
    package var cleanLaunch: CleanLaunch? = CleanLaunch()

    package init(name: String, targetExec: String?, worker: WorkerCommand, variant: String, declaration: TargetDeclaration) {
        self.name = name
        self.targetExec = targetExec
        self.worker = worker
        self.variant = variant
        self.declaration = declaration
    }

    /// The variants it declares (empty: it takes any name).
    package var variants: [String] { declaration.variants }
    /// The scenarios it ships, which commands name by name; nil when it ships none.
    package var catalog: ScenarioCatalog? { ScenarioCatalog(declaredBy: declaration) }

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

    /// The target `worker` starts, named `name`: its declaration as given (a command that
    /// hosts the target has it compiled in), or asked of one worker; a variant it does not
    /// declare is the user's mistake; no variant is its first (or `default`, for a target
    /// that declares none).
    package static func select(_ worker: WorkerCommand, name: String, targetExec: String?, variant: String?,
                               declaration known: TargetDeclaration? = nil) throws(Failure) -> TargetSelection {
        let declaration: TargetDeclaration
        if let known { declaration = known } else { declaration = try describe(worker, name: name, variant: variant ?? "") }
        try checkVariant(variant, of: name, among: declaration.variants)
        return TargetSelection(name: name, targetExec: targetExec, worker: worker,
                               variant: variant ?? declaration.variants.first ?? "default", declaration: declaration)
    }

    /// A user's target executable (`--target-exec PATH`), asked what it declares.
    package static func userTarget(at executable: String, variant: String?) throws(Failure) -> TargetSelection {
        let path = URL(fileURLWithPath: executable).standardizedFileURL.path
        if let problem = Self.executableProblem(path) { throw Failure.usage("--target-exec \(path): \(problem)") }
        let worker = WorkerCommand(executable: path, arguments: [], environment: WorkerCommand.workerEnvironment())
        return try select(worker, name: path, targetExec: path, variant: variant)
    }

    /// A variant the target does not declare is the user's mistake, with the closest one
    /// (a target that declares none takes any name). The one place this is said.
    static func checkVariant(_ variant: String?, of name: String, among declared: [String]) throws(Failure) {
        guard let variant, !declared.isEmpty, !declared.contains(variant) else { return }
        let hint = ClosestName.suggestion(for: variant, among: declared).map { " (did you mean '\($0)'?)" } ?? ""
        throw Failure.usage("--variant '\(variant)' is not a variant of \(name)\(hint); it has: " + NameList.text(declared))
    }

    /// The target's declaration, from one worker started and stopped.
    private static func describe(_ worker: WorkerCommand, name: String, variant: String) throws(Failure) -> TargetDeclaration {
        do {
            return try TargetDescription.read(worker, named: name, variant: variant)
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
