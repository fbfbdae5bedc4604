import CSQLite
import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// peer-migrates: a newer version of the app in another process migrates the shared
/// store — what a GRDB app's migrator and a `user_version` check read afterwards.
@Suite("Fault: peer-migrates", .serialized)
struct PeerMigratesFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(PeerMigratesFault.example)
        #expect(step.fault == AnyFault(PeerMigratesFault()))
        #expect(PeerMigratesFault().plan == PeerPlan(holding: nil, migrates: true))
        ScenarioFixtures.expectRefused("- fault: peer-migrates\n  to: v3", at: .key("to"), saying: "unknown key 'to'")
    }

    /// On a store GRDB migrated: a table of its own, user_version + 1, and a migration
    /// in grdb_migrations the app's migrator does not know.
    @Test func theStoreIsNewerThanTheAppKnows() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        func query(_ sql: String) -> [String] {
            var db: OpaquePointer?
            defer { sqlite3_close(db) }
            guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "unix") == SQLITE_OK else { return ["open failed"] }
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return [String(cString: sqlite3_errmsg(db))] }
            var rows: [String] = []
            while sqlite3_step(statement) == SQLITE_ROW { rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "") }
            return rows
        }
        _ = query("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        _ = query("INSERT INTO grdb_migrations VALUES ('v1')")
        _ = query("PRAGMA user_version = 4")
        try PeerWrite.carryOut(PeerWriteOrder(file: "s.sqlite", holdMs: nil, dirty: false, migrate: true), dataDirectory: folder.url)
        #expect(query("PRAGMA user_version") == ["5"])
        #expect(query("SELECT identifier FROM grdb_migrations ORDER BY identifier") == ["chaos-newer-version", "v1"])
        #expect(query("SELECT name FROM sqlite_master WHERE name = 'chaos_newer_version'") == ["chaos_newer_version"])
    }

    /// The journal example's demo variant launches as GRDB's demo app does, with
    /// `eraseDatabaseOnSchemaChange`: after a newer version migrated its store, it erases
    /// it — and its careful start-up brings the entries back from its last good copy,
    /// told. The careful variant opens the newer store as it is.
    @Test func aMigratorThatErasesOnSchemaChangeErasesTheStore() throws {
        func lastLaunchMode(_ variant: String) throws -> String? {
            let reports = try TemporaryFolder()
            let result = try ChaosExecutable.run(["check", "--target-exec", CheckTests.example("journal"), "--variant", variant,
                                                  "--only", "check-peer-migrates", "--report-dir", reports.url.path])
            #expect(result.exitCode == 0, "\(variant): \(result.stdout)")
            let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
            return report.cases.first?.steps.last { $0.label == "launch" }?.mode
        }
        #expect(try lastLaunchMode("demo") == "restored-from-backup", "the demo erased its store at the launch after the migration")
        #expect(try lastLaunchMode("careful") == "persistent")
    }
}
