import Testing
@testable import Chaos
@testable import ChaosTarget

/// Jepsen's set check: acknowledged writes must survive, attempted-but-unacknowledged
/// writes may survive ("recovered"), nothing else may appear, removals must stay removed.
@Suite("Acknowledged set check")
struct AcknowledgedSetCheckTests {
    @Test func everyAcknowledgedWritePresentPasses() {
        let check = AcknowledgedSetCheck(acknowledged: ["a", "b"], attempted: ["a", "b"], removed: [], present: ["a", "b"])
        #expect(check.passed)
        #expect(check.lost.isEmpty && check.unexpected.isEmpty && check.recovered.isEmpty && check.resurrected.isEmpty)
        #expect(check.acknowledgedCount == 2)
        #expect(check.summary == "2 acknowledged, 0 lost, 0 unexpected, 0 recovered")
    }

    @Test func acknowledgedWriteMissingAtTheEndIsLost() {
        let check = AcknowledgedSetCheck(acknowledged: ["a", "b", "c"], attempted: ["a", "b", "c"], removed: [], present: ["b"])
        #expect(!check.passed)
        #expect(check.lost == ["a", "c"])
        #expect(check.summary == "3 acknowledged, 2 lost, 0 unexpected, 0 recovered; lost: a, c")
    }

    @Test func recordNeverAttemptedIsUnexpected() {
        let check = AcknowledgedSetCheck(acknowledged: ["a"], attempted: ["a"], removed: [], present: ["a", "zombie"])
        #expect(!check.passed)
        #expect(check.unexpected == ["zombie"])
        #expect(check.summary == "1 acknowledged, 0 lost, 1 unexpected, 0 recovered; unexpected: zombie")
    }

    @Test func aRecordTheAppMakesByItselfIsItsOwnAndAnyOtherStillUnexpected() {
        let own = OwnRecords(learned: ["entry:1", "entry:2"], declared: ["settings", "sample:*"])
        let check = AcknowledgedSetCheck(acknowledged: [], attempted: [], removed: [],
                                         present: ["entry:1", "entry:2", "settings", "sample:x7", "entry:3"], own: own.contains)
        #expect(check.own == ["entry:1", "entry:2", "sample:x7", "settings"])
        #expect(check.unexpected == ["entry:3"], "a key a clean launch did not make, nor the target declares, is still evidence")
        #expect(!check.passed)
        #expect(check.summary == "0 acknowledged, 0 lost, 1 unexpected, 0 recovered, 4 the app's own; unexpected: entry:3")
        #expect(!own.contains("settings:2") && !own.contains("sampl") && own.contains("sample:"))
        let ownOnly = AcknowledgedSetCheck(acknowledged: ["a"], attempted: ["a"], removed: [], present: ["a", "entry:1"],
                                           unresolvedActions: 1, own: own.contains)
        #expect(ownOnly.passed && ownOnly.indeterminate.isEmpty && ownOnly.own == ["entry:1"],
                "the app's own record is its own even when a cut action could have written it")
        let lost = AcknowledgedSetCheck(acknowledged: ["entry:1"], attempted: ["entry:1"], removed: [], present: [], own: own.contains)
        #expect(lost.lost == ["entry:1"], "an acknowledged record is owed, whoever could have made it")
    }

    @Test func aRowACleanLaunchMadeUnderANewKeyIsTheAppsOwn() {
        // Fluent's seed migration: the same tags, under fresh UUIDs at every launch.
        let own = OwnRecords(cleanLaunch: ["tags": ["tag:A1": "Home", "tag:B2": "Work"], "todos": [:]])
        let snapshot = ["tags": ["tag:C3": "Home", "tag:D4": "Work", "tag:E5": "Gym"], "todos": ["todo:1": "Home"]]
        #expect(own.contains("tag:C3", in: snapshot) && own.contains("tag:D4", in: snapshot))
        #expect(!own.contains("tag:E5", in: snapshot), "a row no clean launch made")
        #expect(!own.contains("todo:1", in: snapshot), "the same text in another table is not the app's own")
    }

    @Test func recordsNoActionExplainsComeWithTheDeclarationThatWouldOwnThem() {
        #expect(OwnRecords.hint(for: []) == nil)
        let hint = OwnRecords.hint(for: ["tag:6F1C", "tag:9A0B"]) ?? ""
        #expect(hint.contains("these records") && hint.hasSuffix("static var ownRecords = [\"tag:*\"]"), "\(hint)")
        #expect(OwnRecords.hint(for: ["settings"])?.hasSuffix("[\"settings\"]") == true)
    }

    @Test func unacknowledgedWriteThatReachedTheDiskIsRecoveredAndAllowed() {
        let check = AcknowledgedSetCheck(acknowledged: ["a"], attempted: ["a", "b"], removed: [], present: ["a", "b"])
        #expect(check.passed)
        #expect(check.recovered == ["b"])
        #expect(check.summary == "1 acknowledged, 0 lost, 0 unexpected, 1 recovered")
    }

    @Test func unacknowledgedWriteThatDidNotReachTheDiskIsNotLost() {
        let check = AcknowledgedSetCheck(acknowledged: ["a"], attempted: ["a", "b"], removed: [], present: ["a"])
        #expect(check.passed)
        #expect(check.lost.isEmpty)
    }

    @Test func acknowledgedRemovalIsNotExpectedAtTheEnd() {
        let check = AcknowledgedSetCheck(acknowledged: ["a", "b"], attempted: ["a", "b"], removed: ["b"], present: ["a"])
        #expect(check.passed)
        #expect(check.lost.isEmpty)
        #expect(check.acknowledgedCount == 1)
    }

    /// A delete announced and never confirmed (cut by the power, or failed) may have
    /// landed: its record gone is indeterminate; any other record gone is still lost.
    @Test func aRecordWhoseDeleteWasCutMayBeGoneButNoOtherMay() {
        let gone = AcknowledgedSetCheck(acknowledged: ["a", "b"], attempted: ["a", "b"], removed: [], present: ["b"],
                                        removing: ["a"])
        #expect(gone.passed && gone.lost.isEmpty && gone.indeterminate == ["a"])
        #expect(gone.summary == "1 acknowledged, 0 lost, 0 unexpected, 0 recovered, 1 indeterminate")
        let kept = AcknowledgedSetCheck(acknowledged: ["a", "b"], attempted: ["a", "b"], removed: [], present: ["a", "b"],
                                        removing: ["a"])
        #expect(kept.passed && kept.indeterminate == ["a"])
        let other = AcknowledgedSetCheck(acknowledged: ["a", "b"], attempted: ["a", "b"], removed: [], present: ["a"],
                                         removing: ["a"])
        #expect(!other.passed && other.lost == ["b"])
    }

    @Test func removedRecordThatCameBackIsResurrected() {
        let check = AcknowledgedSetCheck(acknowledged: ["a", "b"], attempted: ["a", "b"], removed: ["b"], present: ["a", "b"])
        #expect(!check.passed)
        #expect(check.resurrected == ["b"])
        #expect(check.summary == "1 acknowledged, 0 lost, 0 unexpected, 0 recovered, 1 resurrected; resurrected: b")
    }

    @Test func emptyCaseWithNothingPresentPasses() {
        let check = AcknowledgedSetCheck(acknowledged: [], attempted: [], removed: [], present: [])
        #expect(check.passed)
        #expect(check.summary == "0 acknowledged, 0 lost, 0 unexpected, 0 recovered")
    }

    @Test func listsAreSortedSoTheSummaryIsStable() {
        let keys: Set = ["favorites:3", "favorites:1", "favorites:2"]
        let check = AcknowledgedSetCheck(acknowledged: keys, attempted: keys, removed: [], present: [])
        #expect(check.lost == ["favorites:1", "favorites:2", "favorites:3"])
    }

    @Test func summaryListsAtMostEightKeysThenTheCount() {
        let keys = Set((1...10).map { "k\($0)" })
        let check = AcknowledgedSetCheck(acknowledged: keys, attempted: keys, removed: [], present: [])
        #expect(check.summary == "10 acknowledged, 10 lost, 0 unexpected, 0 recovered; lost: k1, k10, k2, k3, k4, k5, k6, k7 … (10)")
    }

    @Test func summaryNamesEveryKindOfFailureInOrder() {
        let check = AcknowledgedSetCheck(acknowledged: ["a", "b"], attempted: ["a", "b", "c"], removed: ["b"],
                                         present: ["b", "c", "x"])
        #expect(!check.passed)
        #expect(check.summary
            == "1 acknowledged, 1 lost, 1 unexpected, 1 recovered, 1 resurrected; lost: a; unexpected: x; resurrected: b")
    }
}
