import ChaosTarget
import Foundation

/// `chaos check`: the storage catalog (``CheckCatalog``) and two bounded sweeps of
/// the workload's writes, on one target, as one run report. Each sweep is one case of
/// the report (`check-write-workload-io-sweep`, `-crash-sweep`): passed when no trial
/// failed, else deviated with its first failure's trap and reproduce line.
package struct StorageCheck {
    /// The storage catalog (``CheckCatalog``), loaded once by the command.
    package var catalog: [Scenario]
    package var options: RunOptions
    package var command: String
    package var jobs = 1
    /// `--shard I/N`: only the units (scenarios and sweeps) of that shard, by name.
    package var shard: (index: Int, count: Int)?
    /// `--only NAME`: only these units; all when empty.
    package var only: Set<String> = []

    package init(catalog: [Scenario], options: RunOptions, command: String) {
        self.catalog = catalog
        self.options = options
        self.command = command
    }

    /// The two sweep cases: their names in the report, and what each sweeps.
    package static let sweeps: [(name: String, kind: Sweeper.Kind)] = [Sweeper.Kind.io, .crash].map { kind in
        ("\(CheckCatalog.sweptScenario)-\(kind.rawValue)-sweep", kind)
    }

    /// The names of the two sweep cases.
    package static var sweepNames: [String] { sweeps.map(\.name) }

    /// Every case of the catalog by name: its scenarios but the swept one, then the sweeps.
    package static func caseNames(of catalog: [Scenario]) -> [String] {
        catalog.filter { $0.name != CheckCatalog.sweptScenario }.map(\.name) + sweepNames
    }

    package func run(progress: @escaping (SuiteRunner.CaseEvent) -> Void = { _ in }) -> RunReport {
        var scenarios = catalog.filter { $0.name != CheckCatalog.sweptScenario }
        var sweeps = Self.sweeps
        if !only.isEmpty {
            scenarios = scenarios.filter { only.contains($0.name) }
            sweeps = sweeps.filter { only.contains($0.name) }
        }
        if let (index, count) = shard {
            scenarios = SuiteRunner.shard(scenarios, index: index, of: count)
            sweeps = sweeps.filter { SuiteRunner.shardIndex(of: $0.name, count: count) == index }
        }
        let started = ContinuousClock.now
        // Cases that have nothing to act on in this target are reported skipped, not run.
        let declaration = options.target.declaration
        let skipped = scenarios.compactMap { scenario in
            CheckCatalog.skipReason(scenario, on: declaration).map { CaseRunner(scenario: scenario, options: options).notApplicable($0) }
        }
        scenarios.removeAll { CheckCatalog.skipReason($0, on: declaration) != nil }
        let suite = SuiteRunner(options: options, command: command).run(scenarios, jobs: jobs, progress: progress)
        for report in skipped { progress(.finished(report, scratch: nil)) }
        var cases = suite.cases + skipped
        if let swept = catalog.first(where: { $0.name == CheckCatalog.sweptScenario }) {
            for (name, kind) in sweeps {
                if let reason = CheckCatalog.skipReason(swept, on: declaration) {
                    let report = sweepReport(name: name, kind: kind, on: swept, verdict: .skipped, expectations: [],
                                             error: "does not apply: \(reason)")
                    progress(.finished(report, scratch: nil))
                    cases.append(report)
                    continue
                }
                guard !RunInterruption.requested else {
                    cases.append(sweepReport(name: name, kind: kind, on: swept, verdict: .interrupted,
                                             expectations: [], error: "not started: the run was interrupted"))
                    continue
                }
                progress(.started(swept))
                let sweep = sweepCase(name: name, kind: kind, on: swept)
                progress(.finished(sweep, scratch: nil))
                cases.append(sweep)
            }
        }
        return RunReport(run: suite.run, cases: cases, durationMs: (ContinuousClock.now - started).wholeMilliseconds)
    }

    /// One bounded sweep, as a case.
    func sweepCase(name: String, kind: Sweeper.Kind, on scenario: Scenario) -> CaseReport {
        let limit = kind == .io ? CheckCatalog.ioSweepTrials : CheckCatalog.crashSweepTrials
        var sweeper = Sweeper(scenario: scenario, options: options, kind: kind, limit: limit, seeds: 1)
        sweeper.jobs = jobs
        let outcome = sweeper.run()
        let first = outcome.firstFailure?.report
        let unit = kind == .io ? "I/O operations" : "crash points"
        let covered = outcome.pointsTotal.map { "\(outcome.pointsCovered) of \($0) \(unit)" } ?? "\(outcome.pointsCovered) \(unit)"
        let failures = outcome.failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let result = ExpectationResult(
            kind: "sweep", label: "\(kind.rawValue) sweep of the workload's writes", passed: outcome.failures.isEmpty,
            expected: "no trial fails", observed: "\(outcome.trials) trials, \(covered) covered"
                + (failures.isEmpty ? ", no failure" : "; \(outcome.failedTrials) failed: \(failures)"),
            detail: first.map { "first failure: \($0.reproduce)" })
        // Interrupted: what ran is said, but the sweep proves nothing either way.
        let verdict: Verdict = outcome.interrupted ? .interrupted : !outcome.failures.isEmpty
            ? (outcome.failedTrials == outcome.failures["errored"] ? .errored : .deviated)
            : outcome.nothingToSweep == nil ? .passed : .inconclusive
        let error: String? = switch verdict {
        case .interrupted: "interrupted after \(outcome.trials) trials"
        case .errored: first?.error
        case .inconclusive: outcome.nothingToSweep
        default: nil
        }
        var report = sweepReport(name: name, kind: kind, on: scenario, verdict: verdict,
                                 expectations: verdict == .interrupted ? [] : [result], error: error,
                                 durationMs: outcome.durationMs, reproduce: first?.reproduce ?? sweeper.reproduceCommand(nil))
        report.trap = first?.trap
        report.injections = first?.injections ?? []
        report.steps = first?.steps ?? []
        report.faults = first?.faults
        return report
    }

    /// A sweep's case in the report.
    func sweepReport(name: String, kind: Sweeper.Kind, on scenario: Scenario, verdict: Verdict, expectations: [ExpectationResult],
                     error: String?, durationMs: Int = 0, reproduce: String? = nil) -> CaseReport {
        let limit = kind == .io ? CheckCatalog.ioSweepTrials : CheckCatalog.crashSweepTrials
        let sweeper = Sweeper(scenario: scenario, options: options, kind: kind, limit: limit, seeds: 1)
        return CaseReport(
            scenario: name, summary: "\(scenario.summary) (\(kind.rawValue) sweep, at most \(limit) trials)", system: scenario.system,
            scenarioFile: scenario.origin.reportedFile(name: scenario.name), scenarioHash: CaseReport.scenarioHash(of: scenario.sourceText),
            seed: scenario.seed, variant: options.variant, verdict: verdict, durationMs: durationMs,
            expectations: expectations, reproduce: reproduce ?? sweeper.reproduceCommand(nil), error: error)
    }
}
