import ChaosTarget

/// One case of a run: a scenario run once, with one seed and one variant,
/// and everything the runner saw while it ran.
///
/// ```json
/// {
///   "scenario" : "notes-corrupted", "seed" : 1, "variant" : "fragile",
///   "verdict" : "deviated", "durationMs" : 1840, "recoveryMs" : null,
///   "steps" : [ … ], "injections" : [ … ], "expectations" : [ … ],
///   "trap" : { "signal" : 4, "signalName" : "SIGILL", … },
///   "reproduce" : "chaos run scenarios/notes-corrupted.yaml --seed 1 --variant fragile --target-exec …", …
/// }
/// ```
///
/// Times are milliseconds since the case started. Every optional is
/// written as an explicit `null`, never omitted.
package struct CaseReport: Codable, Sendable, Equatable {
    /// The scenario's `name`.
    package var scenario: String
    /// The scenario's `summary`: one sentence for a human.
    package var summary: String
    /// The seed system it exercises, e.g. `favorites`.
    package var system: String
    /// Where the scenario came from: a path, or `catalog/NAME.yaml`.
    package var scenarioFile: String
    /// SHA-256 of the scenario file's text, lowercase hex: tells a reader
    /// whether a re-run used the same scenario. See ``scenarioHash(of:)``.
    package var scenarioHash: String
    /// The seed this case actually used.
    package var seed: UInt64
    package var variant: String
    package var verdict: Verdict
    package var durationMs: Int
    /// Time to the first successful user-level read after the fault, or nil
    /// when the case did not measure it.
    @ExplicitNull package var recoveryMs: Int?
    /// When the measured recovery window started (since case start): the launch, or
    /// the clear of a fault. Null when recovery was not measured.
    @ExplicitNull package var recoveryStartMs: Int?
    /// Against `--baseline`: `new` (fails now, passed or absent before), `known` (failed
    /// before too), `fixed` (failed before, passes now); null without a baseline or when
    /// it passed both times.
    @ExplicitNull package var baseline: String?
    /// The target options the case ran with (the scenario's `options:` and any
    /// `--option` overrides), so `chaos reproduce` can run it the same way.
    @ExplicitNull package var options: [String: String]?
    package var steps: [StepRecord]
    /// What fired, in the order it fired.
    package var injections: [InjectionRecord]
    /// What each armed fault did over the case, in arming order (nil in reports
    /// written before it was recorded).
    @ExplicitNull package var faults: [FaultActivity]?
    /// Every expectation checked, including the implicit `no-trap`.
    package var expectations: [ExpectationResult]
    /// The worker's trap, if it trapped.
    @ExplicitNull package var trap: TrapRecord?
    /// The exact command line that reproduces this case.
    package var reproduce: String
    /// What broke the harness when ``verdict`` is `errored`, or why the case
    /// was `skipped`; nil otherwise.
    @ExplicitNull package var error: String?
    /// How many worker processes the case started.
    package var workerLaunches: Int
    /// Processes the app left running after its workers ended (a helper that outlived
    /// the app, one that left the worker's session), each killed by Chaos: how each was
    /// named (`pid 123 (sleep 100)`). Null when it left none.
    @ExplicitNull package var leftBehind: [String]?
    /// What the app logged through swift-log, each record beside its step; null when it
    /// logged nothing (or Chaos read no logs: ``ChaosTarget/logging``).
    @ExplicitNull package var logs: [LogEntry]?
    /// Records logged past the most a case keeps (``LogEntry/keptPerCase``); null when none.
    @ExplicitNull package var logsDropped: Int?
    /// The fault points the app's code reached, when the case counted them (a hunt's
    /// plain first run); nil otherwise.
    package var pointsReached: [String]?
    /// A hunt's finding: what happened, in one paragraph built from the evidence (the
    /// same words as its finding's `explanation`); nil for any other case.
    @ExplicitNull package var explanation: String?

    package init(
        scenario: String,
        summary: String,
        system: String,
        scenarioFile: String,
        scenarioHash: String,
        seed: UInt64,
        variant: String,
        verdict: Verdict,
        durationMs: Int,
        recoveryMs: Int? = nil,
        steps: [StepRecord] = [],
        injections: [InjectionRecord] = [],
        expectations: [ExpectationResult] = [],
        trap: TrapRecord? = nil,
        reproduce: String,
        error: String? = nil,
        workerLaunches: Int = 0
    ) {
        self.scenario = scenario
        self.summary = summary
        self.system = system
        self.scenarioFile = scenarioFile
        self.scenarioHash = scenarioHash
        self.seed = seed
        self.variant = variant
        self.verdict = verdict
        self.durationMs = durationMs
        self.recoveryMs = recoveryMs
        self.steps = steps
        self.injections = injections
        self.expectations = expectations
        self.trap = trap
        self.reproduce = reproduce
        self.error = error
        self.workerLaunches = workerLaunches
    }

    /// The value for ``scenarioHash``: SHA-256 of the UTF-8 text, lowercase hex.
    package static func scenarioHash(of scenarioText: String) -> String {
        SHA256.hexDigest(of: Array(scenarioText.utf8))
    }

}

extension CaseReport {
    /// The verdict in a few words: `✔ passed`, `✘ trap at LegacyStore.swift:18`,
    /// `✘ preserved, surfaced` (the kinds of the failed expectations, each once), or the
    /// verdict itself (`inconclusive`, `errored`…).
    package var verdictInBrief: String {
        switch verdict {
        case .passed: return "✔ passed"
        case .deviated:
            if let trap { return "✘ trap" + (trap.site.map { " at \($0)" } ?? " (\(trap.signalName))") }
            var seen: Set<String> = []
            return "✘ " + expectations.filter { !$0.passed }.map(\.kind).filter { seen.insert($0).inserted }.joined(separator: ", ")
        default: return verdict.rawValue
        }
    }
}
