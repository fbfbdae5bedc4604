import ArgumentParser
import Chaos
import Foundation
import ReferenceTarget

/// Which app a command works on: the built-in one (the reference app, which this
/// executable hosts), or a user's target executable, and which of its variants. Every
/// command that starts the app takes these.
struct TargetOptions: ParsableArguments {
    @Option(help: "A target executable of your own that links ChaosTarget (docs/TARGETS.md); default: the built-in app.")
    var targetExec: String?

    @Option(help: "hardened or legacy for the built-in app (default hardened); with --target-exec, one of the target's own variants (default its first).")
    var variant: String?

    /// The target chosen, with its variant settled: the built-in app is selected as any
    /// target is, its declaration read in this process (it is compiled in); a user's
    /// target is asked what it declares.
    func resolve() throws -> TargetSelection {
        try Self.resolve(targetExec: targetExec, variant: variant)
    }

    /// As ``resolve()``, for a target and variant recorded in a report.
    static func resolve(targetExec: String?, variant: String?) throws -> TargetSelection {
        do {
            guard let targetExec else {
                return try TargetSelection.select(builtInWorker, name: RunInfo.hostedTarget, targetExec: nil, variant: variant,
                                                  declaration: builtInDeclaration)
            }
            return try TargetSelection.userTarget(at: targetExec, variant: variant)
        } catch let TargetSelection.Failure.usage(text) {
            throw CommandFailure("chaos: \(text)", .usage)
        } catch let TargetSelection.Failure.harness(text) {
            throw CommandFailure("chaos: --target-exec: \(text)", .harnessError)
        } catch TargetSelection.Failure.interrupted {
            throw CommandFailure("chaos: interrupted", .interrupted)
        }
    }

    /// What the built-in app declares, read in this process (it is compiled in).
    static var builtInDeclaration: TargetDeclaration {
        MainActor.assumeIsolated { ReferenceApp.declaration }
    }

    /// The built-in app's worker: this executable, as the reference app asks to be
    /// started (`chaos worker`).
    static var builtInWorker: WorkerCommand {
        WorkerCommand(executable: selfExecutable, arguments: ReferenceApp.workerArguments, environment: WorkerCommand.workerEnvironment())
    }

    /// This executable's own path: the built-in worker is `chaos worker`.
    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

extension TargetSelection {
    /// Every scenario the target ships (`chaos run --all`, `chaos list`); a target that
    /// ships none is told how to name its scenarios instead.
    func ownScenarios() throws(ScenarioError) -> [Scenario] {
        guard let catalog else {
            throw ScenarioError(file: name, line: 0, column: 0,
                                message: "the target ships no scenarios of its own (ChaosTarget.scenarioFolder): name scenario files or folders")
        }
        return try catalog.scenarios()
    }

    /// Refuses scenarios and `--option`s that do not fit the target, before anything
    /// runs: every problem is printed (a scenario's with its line), and the command ends
    /// with exit 64.
    func check(_ scenarios: [Scenario], options: [String: String] = [:]) throws {
        let problems = problems(scenarios).map { String(describing: $0) } + problems(options: options).map { "chaos: \($0)" }
        guard !problems.isEmpty else { return }
        for problem in problems { printError(problem) }
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
        for pair in option {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--option wants KEY=VALUE, both non-empty, e.g. synchronous=off; got '\(pair)'")
            }
        }
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
    func runOptions(_ target: TargetSelection) -> RunOptions {
        var options = RunOptions(target: target, seed: seed, keepScratch: keep)
        options.optionOverrides = overrides
        return options
    }
}
