import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// Each expectation says what it saw as values beside its words: the durations, modes,
/// severities, counts and keys a tool or a hunt reads — the same whatever the words say.
@Suite struct ExpectationObservationTests {
    private func evaluate(_ expectation: Chaos.Expectation, _ build: (inout CaseEvidence) -> Void) -> ExpectationResult {
        var evidence = CaseEvidence()
        build(&evidence)
        return ExpectationEvaluator.evaluate(expectation, evidence: evidence)
    }

    @Test func aRecoveryIsItsMillisecondsAgainstTheBoundAndTheSlowestAnswerOverIt() {
        let quick = evaluate(.recoveredWithin(.seconds(5))) { $0.recoveryMs = 120 }
        #expect(quick.observation == .duration(ms: 120, boundMs: 5000, slowestMs: nil))
        let hidden = evaluate(.recoveredWithin(.seconds(5))) {
            $0.recoveryMs = 120
            $0.slowestAnswer = SlowAnswer(ms: 9978, what: "'visits.list'", step: "step-8")
        }
        #expect(!hidden.passed && hidden.observation == .duration(ms: 120, boundMs: 5000, slowestMs: 9978))
        let never = evaluate(.recoveredWithin(.seconds(5))) { $0.recoveryMissing = "no read succeeded" }
        #expect(!never.passed && never.observation == .duration(ms: nil, boundMs: 5000, slowestMs: nil))
    }

    @Test func aFallbackIsTheModeReportedAndASurfacedTheSeverityShown() {
        let mode = evaluate(.fallback("restored-from-backup")) { $0.health = ["mode": .string("in-memory")] }
        #expect(!mode.passed && mode.observation == .mode(reported: "in-memory"))
        #expect(evaluate(.fallback("in-memory")) { _ in }.observation == .mode(reported: nil))
        let told = evaluate(.surfaced(.warning)) { $0.surfaced = ["severity": .string("warning"), "message": .string("Restored.")] }
        #expect(told.observation == .surfaced(severity: "warning", message: "Restored."))
    }

    @Test func theSetCheckSaysTheKeysOfEachKindAndACheckpointItsMissingAndChanged() {
        let loss = evaluate(.preserved(Chaos.Expectation.acknowledged)) {
            $0.acknowledged = ["note:1", "note:2", "note:3"]
            $0.attempted = ["note:1", "note:2", "note:3"]
            $0.finalSnapshot = ["notes": ["note:2": "b", "stray": "x"]]
        }
        #expect(loss.observation == .records(lost: ["note:1", "note:3"], corrupted: [], unexpected: ["stray"], indeterminate: []))
        #expect(loss.records?.lost == 2)
        let many = (1...50).map { "k\($0)" }
        let cut = evaluate(.noSilentLoss) {
            $0.acknowledged = RecordKeys(Set(many))
            $0.attempted = RecordKeys(Set(many))
            $0.finalSnapshot = ["t": [:]]
        }
        guard case let .records(lost, _, _, _)? = cut.observation else { Issue.record("\(String(describing: cut.observation))"); return }
        #expect(lost.count == ExpectationObservation.keysKept && cut.records?.lost == 50, "the keys are cut, the count is not")
        let checkpoint = evaluate(.preserved("before")) {
            $0.checkpoints["before"] = ["t": ["a": "1", "b": "2", "c": "3"]]
            $0.finalSnapshot = ["t": ["a": "1", "b": "two"]]
        }
        #expect(checkpoint.observation == .checkpoint(total: 3, missing: ["c"], changed: ["b"]))
    }

    @Test func theObservationIsWrittenAsOneKeyInTheReport() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(ExpectationObservation.duration(ms: 93, boundMs: 5000, slowestMs: nil)), as: UTF8.self)
        #expect(text == #"{"duration":{"boundMs":5000,"ms":93}}"#)
        let back = try JSONDecoder().decode(ExpectationObservation.self, from: Data(#"{"mode":{"reported":"salvaged"}}"#.utf8))
        #expect(back == .mode(reported: "salvaged"))
    }
}
