import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// peer-holds-write: another process of the app holds the shared store's write lock for
/// a while — a second worker of the target, whose lock the app really meets.
@Suite("Fault: peer-holds-write", .serialized)
struct PeerHoldsWriteFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(PeerHoldsWriteFault.example)
        #expect(step.fault == AnyFault(PeerHoldsWriteFault(holding: .milliseconds(300))))
        #expect(step.label == "fault peer-holds-write for 300ms")
        #expect(try ScenarioFixtures.faultStep("- fault: peer-holds-write").fault == AnyFault(PeerHoldsWriteFault()))
        #expect(!PeerHoldsWriteFault.stands, "the peer lets go by itself")
    }

    @Test func refusesAHoldOfNothingOrForever() {
        ScenarioFixtures.expectRefused("- fault: peer-holds-write\n  for: 0s", at: .value("for"), saying: "more than 0, at most 30s")
        ScenarioFixtures.expectRefused("- fault: peer-holds-write\n  for: 2m", at: .value("for"), saying: "more than 0, at most 30s")
        ScenarioFixtures.expectRefused("- fault: peer-holds-write\n  times: 2", at: .key("times"), saying: "takes no trigger")
    }

    /// The store the peer writes: the shared container's `store`, else its first file;
    /// none without SQLite or a shared container.
    @Test func thePeerWritesTheSharedStore() {
        func store(_ shared: [String], sqlite: Int = 1) -> String? {
            PeerSeam.sharedStore(of: TargetDeclaration(files: ["store": "a.sqlite", "wal": "a.sqlite-wal", "cache": "c.sqlite"], actions: [], probes: [],
                                                       sqliteLibraries: sqlite, sharedContainer: shared))?.file
        }
        #expect(store(["wal", "store"]) == "a.sqlite")
        #expect(store(["cache", "wal"]) == "c.sqlite")
        #expect(store([]) == nil)
        #expect(store(["store"], sqlite: 0) == nil)
    }

    /// Both ways on the built-in app: hardened waits its turn and keeps the save; legacy
    /// (GRDB's default busy mode, and a `try?` that swallows the failure) reports the
    /// save done and loses it.
    @Test func aSaveWaitsItsTurnOrIsLost() throws {
        let reports = try TemporaryFolder()
        let hardened = try ChaosExecutable.run(["check", "--only", "check-peer-holds-write-on-save", "--report-dir", reports.url.path])
        #expect(hardened.exitCode == 0, "\(hardened.stdout)")
        let legacy = try ChaosExecutable.run(["check", "--variant", "legacy", "--only", "check-peer-holds-write-on-save",
                                              "--report-dir", reports.url.path])
        #expect(legacy.exitCode == 1)
        #expect(legacy.stdout.contains("1 of 4 acknowledged records lost"), "\(legacy.stdout)")
        #expect(legacy.stdout.contains("the peer took the write lock of store for 300ms"))
    }
}
