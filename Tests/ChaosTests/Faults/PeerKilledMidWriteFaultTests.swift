import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget
import CSQLite

/// peer-killed-mid-write: another process of the app dies in the middle of a write it
/// never committed; SQLite gets over it, and so must the app.
@Suite("Fault: peer-killed-mid-write", .serialized)
struct PeerKilledMidWriteFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(PeerKilledMidWriteFault.example)
        #expect(step.fault == AnyFault(PeerKilledMidWriteFault()))
        ScenarioFixtures.expectRefused("- fault: peer-killed-mid-write\n  after: 2", at: .key("after"), saying: "takes no trigger")
    }

    /// What the peer writes reaches the files before any commit: in a store in
    /// rollback-journal mode, a journal beside a store whose pages it overwrote — what a
    /// kill leaves hot. Rolled back, the store reads as it was.
    @Test func thePeerWritesPagesItNeverCommits() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("s.sqlite")
        var db: OpaquePointer?
        #expect(sqlite3_open_v2(store.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "unix") == SQLITE_OK)
        #expect(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let before = try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int ?? 0
        let held = try PeerWrite.take(PeerWriteOrder(file: "s.sqlite", holdMs: nil, dirty: true), dataDirectory: folder.url)
        let journal = store.path + "-journal"
        let written = try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int ?? 0
        #expect(FileManager.default.fileExists(atPath: journal), "a journal, hot once its writer is killed")
        #expect(written > before + 100_000, "the pages reached the store before any commit: \(before) → \(written) bytes")
        held.release()
        #expect(sqlite3_open_v2(store.path, &db, SQLITE_OPEN_READONLY, "unix") == SQLITE_OK)
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT count(*) FROM t", -1, &statement, nil) == SQLITE_OK)
        #expect(sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_int(statement, 0) == 3)
        sqlite3_finalize(statement)
        sqlite3_close(db)
    }

    /// Both ways: the built-in app gets over a dead writer, in both variants.
    @Test func theBuiltInAppGetsOverADeadWriter() throws {
        let reports = try TemporaryFolder()
        for variant in ["hardened", "legacy"] {
            let result = try ChaosExecutable.run(["check", "--variant", variant, "--only", "check-peer-killed-mid-write", "--report-dir", reports.url.path])
            #expect(result.exitCode == 0, "\(variant): \(result.stdout)")
            #expect(result.stdout.contains("1 passed"))
        }
    }
}
