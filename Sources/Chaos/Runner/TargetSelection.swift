import ChaosTarget
import Foundation

/// A target with its variant settled, and what it declares: the built-in app, or a
/// user's target executable asked what it is (one worker started and stopped). The CLI's
/// `--target-exec`/`--variant` and ChaosTesting's `Target` both come here.
package struct TargetSelection: Sendable {
    package var worker: WorkerCommand
    package var variant: String
    /// The variants it declares (empty: it takes any name).
    package var variants: [String]
    /// What it declares: its files, actions and their arguments, probes, modes, workload.
    package var ready: WorkerReady
    /// The systems its scenarios may name (nil: any kebab-case name).
    package var systems: [String]?

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

    /// The built-in app, hosted by the `chaos` executable at `chaos`; `declaration` is its
    /// ready line (read in the CLI's own process, or from a worker).
    package static func builtIn(chaos: String, variant: String?, declaration: WorkerReady) throws -> TargetSelection {
        if let variant, !builtInVariants.contains(variant) {
            throw Failure.usage("--variant must be hardened or legacy for the built-in app, not '\(variant)'")
        }
        return TargetSelection(worker: WorkerCommand.builtIn(chaos: chaos), variant: variant ?? "hardened",
                               variants: builtInVariants, ready: declaration, systems: ScenarioTargetCheck.builtInSystems)
    }

    /// A user's target executable, asked what it declares; a variant it does not know is
    /// the user's mistake, with the closest one.
    package static func userTarget(at executable: String, variant: String?) throws -> TargetSelection {
        let path = URL(fileURLWithPath: executable).standardizedFileURL.path
        if let problem = Self.executableProblem(path) { throw Failure.usage("--target-exec \(path): \(problem)") }
        let worker = WorkerCommand(executable: path, arguments: [], environment: WorkerCommand.workerEnvironment(), targetName: path)
        let ready: WorkerReady
        do { ready = try TargetDescription.read(worker, variant: variant ?? "") } catch {
            if RunInterruption.requested { throw Failure.interrupted }
            throw error.cannotRun ? Failure.usage("--target-exec \(error.description)") : Failure.harness(error.description)
        }
        let declared = ready.variants ?? []
        if let variant, !declared.isEmpty, !declared.contains(variant) {
            let hint = ClosestName.suggestion(for: variant, among: declared).map { " (did you mean '\($0)'?)" } ?? ""
            throw Failure.usage("--variant '\(variant)' is not a variant of \(path)\(hint); it has: " + NameList.text(declared))
        }
        return TargetSelection(worker: worker, variant: variant ?? declared.first ?? "default", variants: declared, ready: ready,
                               systems: nil)
    }

    /// Every problem of `scenarios` on this target, at its line (``ScenarioTargetCheck``).
    package func problems(_ scenarios: [Scenario]) -> [ScenarioError] {
        scenarios.flatMap { ScenarioTargetCheck.problems($0, target: ready, systems: systems) }
    }

    /// Every problem of the run's target options (`--option KEY=VALUE`) on this target:
    /// an option it does not read, an empty name or value, a value it does not take.
    package func problems(options: [String: String]) -> [String] {
        options.keys.sorted().compactMap { key in
            ScenarioTargetCheck.optionProblem(key, options[key] ?? "", target: ready).map { problem in
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
