import Testing
@testable import Chaos
@testable import ChaosTarget

/// `live-after-healing`, `damaged-kept` and `claims-hold`, each judged on evidence that
/// passes and evidence that fails: what the user was promised beyond their records' keys.
@Suite("Oracles of what the user was promised")
struct PromisedToTheUserTests {
    private func evaluate(_ expectation: Chaos.Expectation, _ build: (inout CaseEvidence) -> Void) -> ExpectationResult {
        var evidence = CaseEvidence()
        build(&evidence)
        return ExpectationEvaluator.evaluate(expectation, evidence: evidence)
    }

    private func launched(_ mode: String, _ severity: String, _ message: String? = nil) -> [String: ScenarioValue] {
        var health: [String: ScenarioValue] = ["mode": .string(mode), "severity": .string(severity)]
        if let message { health["message"] = .string(message) }
        return health
    }

    private func damage(_ file: String = "store", step: Int = 2, goodCopy: Bool = true, noticed: Bool? = true, kept: Bool? = nil) -> FileDamageMark {
        var mark = FileDamageMark(file: file, step: step, kind: "corrupt-file", chunks: [1, 2, 3, 4], goodCopy: goodCopy, permanent: false)
        mark.noticed = noticed
        mark.kept = kept
        return mark
    }

    // MARK: live-after-healing

    @Test func tryAgainLaterForEverAfterHealingFailsThoughTheUserWasTold() {
        let result = evaluate(.liveAfterHealing) {
            $0.healedBeforeLastLaunch = true
            $0.damages = [damage()]
            $0.health = launched("unavailable", "error", "Your to-dos are unavailable. Try again later.")
        }
        #expect(!result.passed)
        #expect(result.observed.contains("still said the data cannot be served"))
        #expect(result.observation == .healing(held: true, mode: "unavailable", severity: "error"))
    }

    @Test func aLaunchThatServesTheDataAfterHealingPasses() {
        let result = evaluate(.liveAfterHealing) {
            $0.healedBeforeLastLaunch = true
            $0.health = launched("persistent", "none")
            $0.recoveryMs = 12
        }
        #expect(result.passed)
    }

    @Test func anEmptyAnswerWhereRecordsWereAcknowledgedIsNoRecovery() {
        let result = evaluate(.liveAfterHealing) {
            $0.healedBeforeLastLaunch = true
            $0.health = launched("persistent", "none")
            $0.recoveryMs = 3
            $0.acknowledged = ["todo:1", "todo:2"]
            $0.finalSnapshot = ["todo": [:]]
        }
        #expect(!result.passed)
        #expect(result.observed.contains("answered 0 records, where 2 acknowledged"))
    }

    @Test func aFaultStillStandingOrNoGoodCopyHoldsTheAppToNothing() {
        let standing = evaluate(.liveAfterHealing) { $0.health = launched("unavailable", "error") }
        #expect(standing.passed)
        #expect(standing.observation == .healing(held: false, mode: "unavailable", severity: "error"))
        let noCopy = evaluate(.liveAfterHealing) {
            $0.healedBeforeLastLaunch = true
            $0.damages = [damage(goodCopy: false)]
            $0.health = launched("unavailable", "error")
        }
        #expect(noCopy.passed)
        #expect(noCopy.observed.contains("left no other file holding data"))
    }

    // MARK: damaged-kept

    @Test func aStoreTheAppCouldNotReadAndDestroyedFails() {
        let result = evaluate(.damagedKept) { $0.damages = [damage(kept: false)] }
        #expect(!result.passed)
        #expect(result.observation == .destroyed(files: ["store"]))
        #expect(result.observed.contains("destroyed, not set aside"))
    }

    @Test func aStoreSetAsideOrToldGoneOrReadAsItWasPasses() {
        #expect(evaluate(.damagedKept) { $0.damages = [damage(kept: true)] }.passed)
        #expect(evaluate(.damagedKept) { $0.damages = [damage(noticed: false, kept: false)] }.passed)
        var told = damage(kept: false)
        told.toldGone = true
        #expect(evaluate(.damagedKept) { $0.damages = [told] }.passed)
    }

    /// A backup is the app's to refresh at its next save, and a store damaged twice is
    /// held to its last damage: what the first set-aside kept is the app's to replace.
    @Test func onlyTheStoresLastDamageIsHeld() {
        #expect(evaluate(.damagedKept) { $0.damages = [damage("backup", kept: false)] }.passed)
        #expect(evaluate(.damagedKept) { $0.damages = [damage(step: 2, kept: false), damage(step: 5, kept: true)] }.passed)
        #expect(!evaluate(.damagedKept) { $0.damages = [damage(step: 2, kept: true), damage(step: 5, kept: false)] }.passed)
    }

    @Test func aDataFolderNotReadIsMissingEvidenceNotAPass() {
        let result = evaluate(.damagedKept) { $0.damages = [damage(kept: nil)] }
        #expect(!result.passed)
    }

    // MARK: claims-hold

    @Test func aRecordShownAsSyncedThatTheServerLacksFails() {
        let result = evaluate(.claimsHold) {
            $0.claims = ["sync": ["note:A", "note:B", "note:C"]]
            $0.remoteHolds = ["sync": ["note:A"]]
        }
        #expect(!result.passed)
        #expect(result.observation == .claims(missing: ["sync": ["note:B", "note:C"]]))
        #expect(result.observed.contains("2 of the 3 record(s) it shows as kept on sync are not there"))
    }

    @Test func claimsTheServerHoldsPassAndNoClaimPasses() {
        #expect(evaluate(.claimsHold) {
            $0.claims = ["sync": ["note:A"]]
            $0.remoteHolds = ["sync": ["note:A", "note:Z"]]
        }.passed)
        #expect(evaluate(.claimsHold) { $0.claims = [:] }.passed)
    }

    @Test func aClaimWithNoSnapshotToHoldItAgainstOrNoAnswerIsNotAPass() {
        #expect(!evaluate(.claimsHold) { $0.claims = ["sync": ["note:A"]] }.passed)
        #expect(!evaluate(.claimsHold) { _ in }.passed)
    }

    @Test func theThreeAreBareWordsOfAScenario() throws {
        for word in ["live-after-healing", "damaged-kept", "claims-hold"] {
            let keyword = try #require(ExpectationKeyword(rawValue: word))
            #expect(keyword.isBare)
        }
    }
}
