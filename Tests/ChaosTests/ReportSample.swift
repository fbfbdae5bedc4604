@testable import Chaos
@testable import ChaosTarget

/// A run with one case of each verdict that matters, and the hostile strings
/// a worker can send back.
enum ReportSample {
    /// `report` as a hang at its last step leaves it: that step an error, and no-trap
    /// failed with the hang as its end.
    static func hung(_ report: CaseReport, during: String?, endedBy: AppEnd.Hang.Bound = .stepBound) -> CaseReport {
        var report = report
        let end = AppEnd.hung(.init(during: during, waitedMs: report.steps.last?.durationMs, endedBy: endedBy))
        var noTrap = ExpectationResult(kind: "no-trap", label: "no-trap", passed: false, expected: "no trap, no hang", observed: end.sentence)
        noTrap.end = end
        report.expectations = [noTrap]
        return report
    }

    static let hostileMessage = #"Fatal error: <script>alert(1)</script> "quotes" & ampersands 'single'"#

    static let passed = {
        var report = passedWithoutRecoveryStart
        report.recoveryStartMs = 410
        return report
    }()

    private static let passedWithoutRecoveryStart = CaseReport(
        scenario: "corrupted-db",
        summary: "The favourites store is overwritten with garbage while the app is closed.",
        system: "favorites",
        scenarioFile: "catalog/corrupted-db.yaml",
        scenarioHash: CaseReport.scenarioHash(of: "name: corrupted-db\n"),
        seed: 1,
        variant: "hardened",
        verdict: .passed,
        durationMs: 920,
        recoveryMs: 84,
        steps: [
            StepRecord(index: 0, label: "launch", startMs: 0, durationMs: 120, outcome: StepOutcome.ok),
            StepRecord(index: 1, label: "do: favorites.add", startMs: 120, durationMs: 200, outcome: StepOutcome.ok),
            StepRecord(index: 2, label: "stop", startMs: 320, durationMs: 80, outcome: StepOutcome.ok),
            StepRecord(index: 3, label: "fault: corrupt-file", startMs: 400, durationMs: 10, outcome: StepOutcome.ok),
            StepRecord(index: 4, label: "launch", startMs: 410, durationMs: 300, outcome: StepOutcome.ok),
            StepRecord(index: 5, label: "do: favorites.list", startMs: 710, durationMs: 150, outcome: StepOutcome.ok, detail: "25 favourites"),
        ],
        injections: [
            InjectionRecord(kind: "corrupt-file", target: "store", detail: "how: garbage-header", atMs: 405, mechanism: InjectionRecord.Mechanism.fileDamage),
        ],
        expectations: [
            ExpectationResult(kind: "no-trap", label: "no-trap", passed: true, expected: "no trap", observed: "no trap"),
            ExpectationResult(kind: "fallback", label: "fallback: restored-from-backup", passed: true, expected: "restored-from-backup", observed: "restored-from-backup"),
            ExpectationResult(kind: "recovered-within", label: "recovered-within: 5s", passed: true, expected: "≤ 5000 ms", observed: "84 ms"),
        ],
        reproduce: "chaos run corrupted-db --seed 1 --variant hardened",
        workerLaunches: 2
    )

    static let deviated = CaseReport(
        scenario: "quiz-too-few-words",
        summary: "Quiz generation with fewer words than options.",
        system: "vocabulary",
        scenarioFile: "catalog/quiz-too-few-words.yaml",
        scenarioHash: CaseReport.scenarioHash(of: "name: quiz-too-few-words\n"),
        seed: 6745,
        variant: "legacy",
        verdict: .deviated,
        durationMs: 600,
        recoveryMs: nil,
        steps: [
            StepRecord(index: 0, label: "launch", startMs: 0, durationMs: 100, outcome: StepOutcome.ok),
            StepRecord(index: 1, label: "fault: throw", startMs: 100, durationMs: 5, outcome: StepOutcome.ok),
            StepRecord(index: 2, label: "do: quiz.generate", startMs: 105, durationMs: 40, outcome: StepOutcome.trapped, detail: hostileMessage),
        ],
        injections: [
            InjectionRecord(kind: "throw", target: "store/words/fetch", detail: "DatabaseError.fetch <b>bold</b>", atMs: 120, count: 3, mechanism: InjectionRecord.Mechanism.faultPoint),
        ],
        expectations: [
            ExpectationResult(kind: "no-trap", label: "no-trap", passed: false, expected: "no trap", observed: "SIGILL at QuizGenerator.swift:42", detail: hostileMessage),
            ExpectationResult(kind: "surfaced", label: "surfaced: warning", passed: false, expected: "warning", observed: "none"),
            ExpectationResult(kind: "integrity", label: "integrity: ok", passed: true, expected: "ok", observed: "ok"),
        ],
        trap: TrapRecord(
            signal: 4,
            signalName: "SIGILL",
            message: hostileMessage,
            site: "QuizGenerator.swift:42",
            backtrace: "0 QuizGenerator.generate() at QuizGenerator.swift:42\n1 main\n\u{1B}[31mcolour\u{1B}[0m \u{0}nul"
        ),
        reproduce: #"chaos run quiz-too-few-words --seed 6745 --variant legacy --target-exec "/tmp/my app""#,
        workerLaunches: 1
    )

    static let errored = CaseReport(
        scenario: "network-down",
        summary: "The remote is unreachable during family creation.",
        system: "family",
        scenarioFile: "/home/dev/scenarios/network-down.yaml",
        scenarioHash: CaseReport.scenarioHash(of: "name: network-down\n"),
        seed: 3,
        variant: "hardened",
        verdict: .errored,
        durationMs: 3_000,
        steps: [
            StepRecord(index: 0, label: "launch", startMs: 0, durationMs: 3_000, outcome: StepOutcome.timedOut, detail: "no reply within 3s"),
        ],
        reproduce: "chaos run network-down --seed 3 --variant hardened",
        error: "worker did not answer `launch` within 3s\nstderr: <nothing>",
        workerLaunches: 1
    )

    static let skipped = CaseReport(
        scenario: "disk-full-tmpfs",
        summary: "The disk fills up under the store.",
        system: "settings",
        scenarioFile: "catalog/disk-full-tmpfs.yaml",
        scenarioHash: CaseReport.scenarioHash(of: "name: disk-full-tmpfs\n"),
        seed: 4,
        variant: "hardened",
        verdict: .skipped,
        durationMs: 0,
        reproduce: "chaos run disk-full-tmpfs --seed 4 --variant hardened",
        error: "tmpfs mounts need root",
        workerLaunches: 0
    )

    static let report = RunReport(
        run: RunInfo(
            id: "run-2025-06-01-0930-a1b2",
            startedAt: "2025-06-01T09:30:00Z",
            chaosVersion: "0.1.0",
            seed: nil,
            variant: "mixed",
            command: "chaos run --all --report-dir reports",
            target: RunInfo.hostedTarget
        ),
        cases: [passed, deviated, errored, skipped],
        durationMs: 4_700
    )
}
