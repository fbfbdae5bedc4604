@testable import Chaos
import Testing

/// A trap's message reduced to the kind of error it reports: its type and code stay, its
/// paths, sizes, ids and GRDB's statement go — so one `fatalError("… \(error)")` site
/// gives one finding per cause, and never one per path or row.
@Suite struct TrapErrorKindTests {
    @Test func codesStayAndStatementsGo() {
        #expect(TrapErrorKind.of("Unresolved error SQLite error 13: database or disk is full - while executing `INSERT INTO entry (text) VALUES (?)` with arguments [\"Dear diary\"]")
            == "Unresolved error SQLite error 13: database or disk is full")
        #expect(TrapErrorKind.of("Unresolved error SQLite error 26: file is not a database - while executing `PRAGMA journal_mode = WAL`")
            == "Unresolved error SQLite error 26: file is not a database")
        #expect(TrapErrorKind.of("Error Domain=NSCocoaErrorDomain Code=513 \"x\"") == "Error Domain=NSCocoaErrorDomain Code=513 \"x\"")
        #expect(TrapErrorKind.of("failed with errno 28") == "failed with errno 28")
    }

    @Test func pathsBecomeTheirFileNamesAndOtherNumbersN() {
        #expect(TrapErrorKind.of("Failed to open /tmp/chaos-a1b2/data/app.sqlite (3 attempts, 250ms)") == "Failed to open app.sqlite (N attempts, Nms)")
        #expect(TrapErrorKind.of("no note 42 in 'notes.sqlite'") == "no note N in 'notes.sqlite'")
        #expect(TrapErrorKind.of("bad pointer 0x00007ffd1234abcd") == "bad pointer 0xN")
        // Names keep their digits; I/O is no path.
        #expect(TrapErrorKind.of("sqlite3_open_v2 failed: disk I/O error") == "sqlite3_open_v2 failed: disk I/O error")
        #expect(TrapErrorKind.of("Index out of range") == "Index out of range")
    }

    @Test func twoCausesAtOneSiteAreTwoFailuresOneCauseTwiceIsOne() {
        func failure(_ message: String) -> HuntOracle.Failure? {
            var report = ReportSample.deviated
            report.trap = TrapRecord(signal: 4, signalName: "SIGILL", message: message, site: "TemplateStartup.swift:13", backtrace: nil)
            return HuntOracle.failure(of: report)
        }
        let full = failure("Unresolved error SQLite error 13: database or disk is full - while executing `INSERT …`")
        let fullAgain = failure("Unresolved error SQLite error 13: database or disk is full - while executing `CREATE TABLE …`")
        let damaged = failure("Unresolved error SQLite error 26: file is not a database")
        #expect(full == fullAgain)
        #expect(full != damaged)
        #expect(full?.signature == "trap at TemplateStartup.swift:13: Unresolved error SQLite error 13: database or disk is full")
        #expect(full?.name == "trap-template-startup-13-database-or-disk-is-full")
        #expect(damaged?.name == "trap-template-startup-13-file-is-not-a-database")
    }
}
