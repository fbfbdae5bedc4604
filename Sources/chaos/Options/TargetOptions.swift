import ArgumentParser
import Chaos
import Foundation

/// Which app a command works on: the built-in one, or a user's target executable, and
/// which of its variants. Every command that starts the app takes these.
struct TargetOptions: ParsableArguments {
    @Option(help: "A target executable of your own that links ChaosTarget (docs/TARGETS.md); default: the built-in app.")
    var targetExec: String?

    @Option(help: "hardened or legacy for the built-in app (default hardened); with --target-exec, one of the target's own variants (default its first).")
    var variant: String?

    func validate() throws {
        if targetExec == nil, let variant, !Self.builtInVariants.contains(variant) {
            throw ValidationError("--variant must be hardened or legacy for the built-in app, not '\(variant)'")
        }
    }

    static let builtInVariants = ["hardened", "legacy"]

    /// The target chosen, with its variant settled: the built-in app is known; a user's
    /// target is asked what it declares (one worker started and stopped), and a variant
    /// it does not know is bad usage.
    func resolve() throws -> TargetChoice {
        try Self.resolve(targetExec: targetExec, variant: variant)
    }

    /// As ``resolve()``, for a target and variant recorded in a report.
    static func resolve(targetExec: String?, variant: String?) throws -> TargetChoice {
        guard let targetExec else {
            if let variant, !builtInVariants.contains(variant) {
                throw CommandFailure("chaos: --variant must be hardened or legacy for the built-in app, not '\(variant)'", .usage)
            }
            return TargetChoice(worker: WorkerCommand.builtIn(chaos: selfExecutable), variant: variant ?? "hardened",
                                variants: builtInVariants, ready: builtInDeclaration, systems: ScenarioTargetCheck.builtInSystems)
        }
        let path = URL(fileURLWithPath: targetExec).standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CommandFailure("chaos: --target-exec: no executable at \(path)", .usage)
        }
        let worker = WorkerCommand(executable: path, arguments: [], environment: WorkerCommand.workerEnvironment(), targetName: path)
        let ready: WorkerReady
        do { ready = try TargetDescription.read(worker, variant: variant ?? "") } catch {
            throw CommandFailure("chaos: --target-exec: \(error)", .harnessError)
        }
        let declared = ready.variants ?? []
        if let variant, !declared.isEmpty, !declared.contains(variant) {
            let hint = ClosestName.suggestion(for: variant, among: declared).map { " (did you mean '\($0)'?)" } ?? ""
            throw CommandFailure("chaos: --variant '\(variant)' is not a variant of \(path)\(hint); it has: "
                + declared.joined(separator: ", "), .usage)
        }
        return TargetChoice(worker: worker, variant: variant ?? declared.first ?? "default", variants: declared, ready: ready,
                            systems: nil)
    }

    /// What the built-in app declares, read in this process (it is compiled in).
    static var builtInDeclaration: WorkerReady {
        MainActor.assumeIsolated { WorkerReady(target: SystemUnderTestTarget.self, pid: 0) }
    }

    /// This executable's own path: the built-in worker is `chaos worker`.
    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// A target with its variant settled (``TargetOptions/resolve()``).
struct TargetChoice {
    var worker: WorkerCommand
    var variant: String
    /// The variants it declares (empty: it takes any name).
    var variants: [String]
    /// What it declares: its files, actions and their arguments, probes, modes, workload.
    var ready: WorkerReady
    /// The systems its scenarios may name (nil: any kebab-case name).
    var systems: [String]?

    /// Refuses scenarios that do not fit the target, before anything runs: every problem
    /// of every scenario is printed with its line, and the command ends with exit 64.
    func check(_ scenarios: [Scenario]) throws {
        let problems = scenarios.flatMap { ScenarioTargetCheck.problems($0, target: ready, systems: systems) }
        guard !problems.isEmpty else { return }
        for problem in problems { printError(String(describing: problem)) }
        throw CommandFailure("", .usage)
    }
}

/// How each case runs: its seed, the target options, whether its scratch folder stays.
struct CaseOptions: ParsableArguments {
    @Option(help: "Seed for every case (default: each scenario's own seed).")
    var seed: UInt64?

    @Option(help: "A target option KEY=VALUE overriding the scenarios' own (repeatable), e.g. synchronous=off.")
    var option: [String] = []

    @Flag(help: "Keep each case's scratch directory (store files, quarantine, worker logs) and print its path.")
    var keep = false

    func validate() throws {
        for pair in option where !pair.contains("=") { throw ValidationError("--option wants KEY=VALUE, got '\(pair)'") }
    }

    /// `--option` pairs as a map; a later pair wins.
    var overrides: [String: String] {
        var options: [String: String] = [:]
        for pair in option {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            options[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return options
    }

    /// The run options of a command: these choices on the chosen target.
    func runOptions(_ target: TargetChoice) -> RunOptions {
        var options = RunOptions(variant: target.variant, seed: seed, keepScratch: keep, worker: target.worker)
        options.optionOverrides = overrides
        return options
    }
}
