import Foundation
import ChaosTarget

/// Everything one `chaos run` found: the run, a summary, and one
/// ``CaseReport`` per case. Written as `chaos-report.json` by
/// ``JSONReportWriter``, and rendered by ``HTMLReportWriter`` and
/// ``JUnitReportWriter``.
///
/// ```json
/// {
///   "schemaVersion" : 1,
///   "run" : { "id" : "…", "startedAt" : "2025-06-01T09:30:00Z", "seed" : null, … },
///   "summary" : { "passed" : 3, "deviated" : 1, "errored" : 0, "skipped" : 0, … },
///   "cases" : [ … ]
/// }
/// ```
///
/// Every optional is written as an explicit `null`, never omitted.
package struct RunReport: Codable, Sendable, Equatable {
    /// The schema this Chaos writes. Bump it when a field is removed, renamed
    /// or changes meaning; adding a field does not bump it.
    package static let currentSchemaVersion = 1

    package var schemaVersion: Int
    package var run: RunInfo
    package var summary: RunSummary
    package var cases: [CaseReport]
    /// A sweep's coverage (`chaos explore`), whose cases are its failed trials; nil for a run.
    @ExplicitNull package var sweep: SweepSummary?
    /// A hunt's schedules and findings (`chaos hunt`), whose cases are its findings' files; nil for a run.
    @ExplicitNull package var hunt: HuntSummary?

    package init(
        schemaVersion: Int = RunReport.currentSchemaVersion,
        run: RunInfo,
        summary: RunSummary,
        cases: [CaseReport]
    ) {
        self.schemaVersion = schemaVersion
        self.run = run
        self.summary = summary
        self.cases = cases
    }

    /// A report whose summary counts `cases`; `durationMs` is the run's wall
    /// time (the sum of the case durations when nil).
    package init(run: RunInfo, cases: [CaseReport], durationMs: Int? = nil) {
        self.init(run: run, summary: RunSummary(cases: cases, durationMs: durationMs), cases: cases)
    }

    /// The process exit code for this run (docs/CI.md, "What ends a job"), from ``summary``.
    ///
    /// Precedence, first match wins:
    /// 1. `130` if anything was interrupted: the run is incomplete, so nothing
    ///    else it says can be trusted as a gate.
    /// 2. `2` if any case errored: the harness failed, so even the deviations
    ///    found may be artefacts of that failure; fix the harness first.
    /// 3. `1` if any case deviated.
    /// 4. `0` otherwise: every case passed or was skipped (an empty run too).
    ///
    /// `64` (bad usage, invalid scenario) never comes from a report: such a
    /// run stops before it has one.
    package var exitCode: Int32 { exitCode(allowingInconclusive: false) }

    /// 5. with `allowingInconclusive` false, `1` if a case was inconclusive: a fault
    ///    that had no effect proves nothing, and a gate must not pass on it.
    package func exitCode(allowingInconclusive: Bool) -> Int32 {
        exitStatus(allowingInconclusive: allowingInconclusive).rawValue
    }

    package func exitStatus(allowingInconclusive: Bool = false) -> ExitStatus {
        if summary.interrupted > 0 { return .interrupted }
        if summary.errored > 0 { return .harnessError }
        if summary.deviated > 0 { return .failed }
        if summary.inconclusive > 0, !allowingInconclusive { return .failed }
        return .passed
    }
}

/// What, when and how a run was made.
package struct RunInfo: Codable, Sendable, Equatable {
    /// Unique per run; also names the run in the HTML title.
    package var id: String
    /// ISO-8601, e.g. `2025-06-01T09:30:00Z`.
    package var startedAt: String
    package var chaosVersion: String
    /// The `--seed` given for the whole run, or nil when each case used its
    /// scenario's own seed (``CaseReport/seed`` always has the one used).
    @ExplicitNull package var seed: UInt64?
    /// One of the variants the target declares.
    package var variant: String
    /// The command line that produced this report.
    package var command: String
    /// How the run named its target: `built-in` (the one `chaos` hosts), or the path
    /// given to `--target-exec`.
    package var target: String
    /// The `--target-exec` that selects the target again; absent for the one the command
    /// hosts. What `chaos reproduce` reads back (never ``target``, a name for people).
    package var targetExec: String?

    /// The value of ``target`` for the target a command hosts itself.
    package static let hostedTarget = "built-in"

    /// A run starting now with `options`, named by this process's command line.
    package static func now(options: RunOptions, startedAt: Date = Date()) -> RunInfo {
        RunInfo(id: UUID().uuidString.lowercased(), startedAt: ISO8601DateFormatter().string(from: startedAt),
                chaosVersion: ChaosVersion.current, seed: options.seed, variant: options.variant,
                command: CommandLine.arguments.joined(separator: " "), target: options.target.name,
                targetExec: options.target.targetExec)
    }

    package init(
        id: String,
        startedAt: String,
        chaosVersion: String,
        seed: UInt64?,
        variant: String,
        command: String,
        target: String = RunInfo.hostedTarget,
        targetExec: String? = nil
    ) {
        self.id = id
        self.startedAt = startedAt
        self.chaosVersion = chaosVersion
        self.seed = seed
        self.variant = variant
        self.command = command
        self.target = target
        self.targetExec = targetExec
    }

}

/// How many cases ended with each ``Verdict``, and how long the run took.
package struct RunSummary: Codable, Sendable, Equatable {
    package var passed: Int
    package var deviated: Int
    /// Cases in which a fault had no effect (0 in reports written before it existed).
    package var inconclusive: Int
    package var errored: Int
    package var skipped: Int
    package var interrupted: Int
    /// Wall time of the whole run, in milliseconds.
    package var durationMs: Int

    package init(passed: Int = 0, deviated: Int = 0, inconclusive: Int = 0, errored: Int = 0, skipped: Int = 0,
                 interrupted: Int = 0, durationMs: Int = 0) {
        self.passed = passed
        self.deviated = deviated
        self.inconclusive = inconclusive
        self.errored = errored
        self.skipped = skipped
        self.interrupted = interrupted
        self.durationMs = durationMs
    }

    /// Counts the verdicts of `cases`. `durationMs` is the run's wall time;
    /// when nil, the sum of the case durations stands in for it.
    package init(cases: [CaseReport], durationMs: Int? = nil) {
        self.init(durationMs: durationMs ?? cases.reduce(0) { $0 + $1.durationMs })
        for report in cases {
            self[report.verdict] += 1
        }
    }

    private enum CodingKeys: String, CodingKey {
        case passed, deviated, inconclusive, errored, skipped, interrupted, durationMs
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(passed: try container.decode(Int.self, forKey: .passed),
                  deviated: try container.decode(Int.self, forKey: .deviated),
                  inconclusive: try container.decodeIfPresent(Int.self, forKey: .inconclusive) ?? 0,
                  errored: try container.decode(Int.self, forKey: .errored),
                  skipped: try container.decode(Int.self, forKey: .skipped),
                  interrupted: try container.decode(Int.self, forKey: .interrupted),
                  durationMs: try container.decode(Int.self, forKey: .durationMs))
    }

    /// The number of cases in all.
    package var total: Int { passed + deviated + inconclusive + errored + skipped + interrupted }

    /// The count for one verdict.
    package subscript(verdict: Verdict) -> Int {
        get {
            switch verdict {
            case .passed: passed
            case .deviated: deviated
            case .inconclusive: inconclusive
            case .errored: errored
            case .skipped: skipped
            case .interrupted: interrupted
            }
        }
        set {
            switch verdict {
            case .passed: passed = newValue
            case .deviated: deviated = newValue
            case .inconclusive: inconclusive = newValue
            case .errored: errored = newValue
            case .skipped: skipped = newValue
            case .interrupted: interrupted = newValue
            }
        }
    }
}
