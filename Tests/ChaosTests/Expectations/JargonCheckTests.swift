import Testing
@testable import Chaos
@testable import ChaosTarget

/// DESIGN.md section 2: a surfaced message is non-empty and free of technical jargon.
@Suite("Jargon check")
struct JargonCheckTests {
    /// Messages the seed app really shows its users.
    @Test(arguments: [
        "Unable to load favorites. Please try again.",
        "Failed to save changes. Please try again.",
        "Check if you have enough storage space, then try again.",
        "We found a problem with your saved data and restored it from your most recent backup. Changes made after that backup may be missing.",
        "Your data can't be changed right now because storage is read-only.",
    ])
    func plainUserMessagesPass(message: String) {
        #expect(JargonCheck.problem(in: message) == nil)
    }

    @Test(arguments: ["Error saving your changes.", "Something went wrong. Please try again.", "Vanilla is your newest favorite."])
    func ordinaryWordsThatLookTechnicalPass(message: String) {
        #expect(JargonCheck.problem(in: message) == nil)
    }

    @Test(arguments: ["", " ", "\n\t  "])
    func emptyOrWhitespaceMessagesFail(message: String) {
        #expect(JargonCheck.problem(in: message) == "the message is empty")
    }

    @Test func sqliteResultCodeFails() {
        #expect(JargonCheck.problem(in: "Could not save (SQLITE_FULL).") == "contains an SQLite result code: 'SQLITE_FULL'")
        #expect(JargonCheck.problem(in: "SQLITE_IOERR_WRITE") != nil)
    }

    @Test(arguments: ["SQLite error 26: file is not a database", "sqlite3: disk I/O error", "The sqlite3 library is busy"])
    func theNameSQLiteFails(message: String) {
        #expect(JargonCheck.problem(in: message)?.hasPrefix("contains the name SQLite") == true)
    }

    @Test(arguments: ["ENOSPC", "EIO", "EACCES", "EROFS"])
    func errnoNamesFail(name: String) {
        #expect(JargonCheck.problem(in: "Saving failed: \(name)") == "contains an errno name: '\(name)'")
    }

    @Test
    func sqliteAPINameFails() {
        #expect(JargonCheck.problem(in: "sqlite3_step failed")?.hasPrefix("contains the name SQLite") == true)
    }

    @Test func nilFails() {
        #expect(JargonCheck.problem(in: "Your favorite was nil.") == "contains \"nil\": 'nil'")
    }

    @Test func optionalDescriptionFails() {
        #expect(JargonCheck.problem(in: "Could not open Optional(\"x\")") == "contains \"Optional(\": 'Optional('")
    }

    @Test func threeWordTypeNameFails() {
        #expect(JargonCheck.problem(in: "Loading failed: StoreLoadError") == "contains a type name: 'StoreLoadError'")
    }

    @Test(arguments: ["DatabaseError", "DecodingError", "CocoaError", "PersistenceError"])
    func twoWordTypeNameFails(name: String) {
        #expect(JargonCheck.problem(in: "The operation couldn't be completed (\(name)).") == "contains a type name: '\(name)'")
    }

    @Test(arguments: ["Saving failed with error 13", "Saving failed (code: 1555)", "errno=28"])
    func errorCodesFail(message: String) {
        #expect(JargonCheck.problem(in: message)?.hasPrefix("contains an error code") == true)
    }

    @Test
    func capitalisedErrorCodeFails() {
        #expect(JargonCheck.problem(in: "Error 13. Please try again.")?.hasPrefix("contains an error code") == true)
    }

    @Test func nsErrorDescriptionFails() {
        let message = "Error Domain=NSCocoaErrorDomain Code=640 \"You can't save the file because the volume is read only.\""
        #expect(JargonCheck.problem(in: message) == "contains an NSError description: 'Error Domain='")
    }

    @Test func hexAddressFails() {
        #expect(JargonCheck.problem(in: "Crashed at 0x00007f1b25af9361") == "contains an address: '0x00007f1b25af9361'")
    }
}
