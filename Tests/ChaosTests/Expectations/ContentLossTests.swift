import Foundation
import Synchronization
import Testing
@testable import Chaos
@testable import ChaosTarget

/// "Kept" means kept with the value the user saved: a record acknowledged with its value
/// (`call.acknowledge(key, value:)`) and present at the end with another is *corrupted*,
/// a loss like a missing one. An app that serves damaged bytes as good fails
/// `no-silent-loss`; one that tells the user passes; a rewrite in flight excuses it.
@Suite struct ContentLossTests {
    /// A case's log fed the events a worker would send: each record acknowledged with `row`.
    private func log(acknowledging rows: [String: String]) -> CaseLog {
        let log = CaseLog()
        for (key, row) in rows.sorted(by: { $0.key < $1.key }) {
            var event = WorkerEvent(event: .ack, key: key)
            event.digest = RecordDigest.text(RecordDigest.of(row))
            log.record(event, atMs: 0)
        }
        return log
    }

    private let saved = ["file:a": "bytes of a", "file:b": "bytes of b", "file:c": "bytes of c"]

    @Test func aRecordPresentWithAnotherValueIsCorruptedAndFailsNoSilentLoss() {
        let log = log(acknowledging: saved)
        log.evidence.finalSnapshot = ["file": ["file:a": "bytes of a", "file:b": "DAMAGED", "file:c": "bytes of c"]]
        let result = ExpectationEvaluator.evaluate(.noSilentLoss, evidence: log.evidence)
        #expect(!result.passed)
        #expect(result.observed == "1 of 3 acknowledged records corrupted (present, not as saved), and nothing shown to the user")
        #expect(result.detail?.contains("corrupted (present, not as saved): file:b") == true)
        #expect(result.records?.corrupted == 1 && result.records?.lost == 0 && result.records?.acknowledged == 3)
        let preserved = ExpectationEvaluator.evaluate(.preserved(Expectation.acknowledged), evidence: log.evidence)
        #expect(!preserved.passed)
        #expect(preserved.observed.contains("1 corrupted"))
    }

    @Test func theSameValuesPassAndSaySoByContent() {
        let log = log(acknowledging: saved)
        log.evidence.finalSnapshot = ["file": saved]
        let result = ExpectationEvaluator.evaluate(.noSilentLoss, evidence: log.evidence)
        #expect(result.passed)
        #expect(result.observed == "all 3 acknowledged records kept, their content as saved")
    }

    @Test func aCorruptionTheUserWasToldOfIsNotSilent() {
        let log = log(acknowledging: saved)
        log.evidence.finalSnapshot = ["file": ["file:a": "bytes of a", "file:b": "DAMAGED", "file:c": "bytes of c"]]
        log.evidence.surfaced = ["severity": .string("warning"), "message": .string("One upload was damaged and set aside.")]
        let result = ExpectationEvaluator.evaluate(.noSilentLoss, evidence: log.evidence)
        #expect(result.passed)
        #expect(result.observed.hasPrefix("1 of 3 acknowledged records corrupted"))
    }

    @Test func lostAndCorruptedAreCountedApart() {
        let log = log(acknowledging: saved)
        log.evidence.finalSnapshot = ["file": ["file:a": "bytes of a", "file:b": "DAMAGED"]]
        let check = AcknowledgedSetCheck(log.evidence)
        #expect(check.lost == ["file:c"] && check.corrupted == ["file:b"])
        #expect(check.summary == "3 acknowledged, 1 lost, 1 corrupted, 0 unexpected, 0 recovered; lost: file:c; corrupted (present, not as saved): file:b")
    }

    @Test func aKeyAcknowledgedWithoutAValueIsJudgedByKeyAlone() {
        let log = CaseLog()
        log.record(WorkerEvent(event: .ack, key: "note:1"), atMs: 0)
        log.evidence.finalSnapshot = ["note": ["note:1": "anything at all"]]
        #expect(AcknowledgedSetCheck(log.evidence).passed)
    }

    @Test func anUpdateAcknowledgedReplacesTheValueAndARewriteInFlightExcusesEither() {
        let log = log(acknowledging: ["note:1": "first"])
        var update = WorkerEvent(event: .ack, key: "note:1")
        update.digest = RecordDigest.text(RecordDigest.of("second"))
        log.record(update, atMs: 1)
        log.evidence.finalSnapshot = ["note": ["note:1": "first"]]
        #expect(AcknowledgedSetCheck(log.evidence).corrupted == ["note:1"], "the update was acknowledged: the old value is not what the user has")
        log.record(WorkerEvent(event: .attempt, key: "note:1"), atMs: 2)  // a third write, cut before it answered
        #expect(AcknowledgedSetCheck(log.evidence).passed, "the rewrite may or may not have landed")
        log.evidence.finalSnapshot = ["note": ["note:1": "third"]]
        #expect(AcknowledgedSetCheck(log.evidence).passed)
    }

    @Test func aRemovedRecordHasNoValueToKeep() {
        let log = log(acknowledging: ["note:1": "first"])
        log.record(WorkerEvent(event: .remove, key: "note:1"), atMs: 1)
        log.evidence.finalSnapshot = ["note": [:]]
        #expect(AcknowledgedSetCheck(log.evidence).passed)
    }

    @Test func theDigestIsTheSameInEveryProcessAndReadsBack() {
        #expect(RecordDigest.text(RecordDigest.of("")) == "cbf29ce484222325", "FNV-1a's offset basis: no per-process seed")
        #expect(RecordDigest.text(RecordDigest.of("a")) == "af63dc4c8601ec8c")
        #expect(RecordDigest.parse(RecordDigest.text(12)) == 12)
        #expect(RecordDigest.parse("xyz") == nil && RecordDigest.parse("") == nil && RecordDigest.parse(String(repeating: "f", count: 17)) == nil)
    }

    @Test func anAcknowledgementWithItsValueTravelsOnThePlainLine() throws {
        var event = WorkerEvent(event: .ack, key: "file:photo.jpg")
        event.digest = "00ff00ff00ff00ff"
        let line = try #require(event.plainLine)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(line == String(decoding: try encoder.encode(event), as: UTF8.self))
        #expect(WorkerEvent.plain(line: line) == event)
        #expect(WorkerEvent.plain(line: #"{"digest":"00","event":"attempt","key":"x"}"#) == nil, "only an ack carries a value")
    }

    @Test func acknowledgingARecordGivesTheKeyAndRowTheSnapshotWrites() {
        struct Upload: Identifiable { var id: String; var sha: String }
        let events = Mutex<[WorkerEvent]>([])
        let call = ActionCall(name: "uploads.put", arguments: [:]) { event in events.withLock { $0.append(event) } }
        let upload = Upload(id: "a.bin", sha: "12ab")
        call.acknowledge(upload, in: "file")
        let row = try? #require([String: [String: String]].records("file", [upload])["file"]?["file:a.bin"])
        #expect(events.withLock { $0 } == [{
            var event = WorkerEvent(event: .ack, key: "file:a.bin")
            event.digest = RecordDigest.text(RecordDigest.of(row ?? ""))
            return event
        }()])
    }
}
