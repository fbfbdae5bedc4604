@testable import ChaosTarget
import Foundation
import Testing

/// What a target gets without writing it: `health` and `surfaced` from what the launch
/// reported and the last action returned, `launched(_:)`, a snapshot in one call, and the
/// context's conveniences. (The worker host keeps the history per process; these tests set
/// it as the host does, one at a time.)
@MainActor @Suite(.serialized) struct TargetDefaultsTests {
    final class Bare: ChaosTarget {
        static let files = ["store": "bare.sqlite"]
        static let actions: [TargetAction<Bare>] = []
        var store: String?
        init(context: TargetContext) {}
        func launch() async -> Health { Health() }
        func snapshot() async throws -> [String: [String: String]] { [:] }
        func stop() async {}
    }

    struct Problem: LocalizedError {
        var errorDescription: String? { "Your note could not be saved." }
    }

    struct Unsaid: Error {}

    func target(launched: Health, last: ActionResult?) -> Bare {
        TargetHistory.launched = launched
        TargetHistory.lastAction = last
        return Bare(context: TargetContext(dataDirectory: URL(fileURLWithPath: "/nowhere"), variant: "x"))
    }

    @Test func healthIsWhatTheLaunchReportedAndSurfacedFollowsIt() {
        let restored = Health.warning("Restored from your last backup.", mode: .restoredFromBackup)
        let app = target(launched: restored, last: nil)
        #expect(app.health == restored)
        #expect(app.surfaced == .warning("Restored from your last backup."))
        #expect(target(launched: Health(), last: .done()).surfaced == .nothing)
        #expect(target(launched: .unavailable("The notebook can't be opened."), last: nil).surfaced == .error("The notebook can't be opened."))
        #expect(Health.warning(nil, mode: .restoredFromBackup) == Health(), "no message: the store works")
    }

    @Test func aFailedActionIsOnScreenUntilTheNextOneSucceeds() {
        let failed = target(launched: .warning("Restored.", mode: .restoredFromBackup), last: .failed(Problem()))
        #expect(failed.lastFailure == "Your note could not be saved.")
        #expect(failed.surfaced == .error("Your note could not be saved."))
        #expect(failed.lastAction?.error?.contains("Problem") == true, "the report keeps what was thrown")
        let silent = target(launched: .warning("Restored.", mode: .restoredFromBackup), last: .failed(Unsaid()))
        #expect(silent.lastFailure == nil && silent.surfaced == .warning("Restored."), "an error the app does not describe tells the user nothing")
        let after = target(launched: .warning("Restored.", mode: .restoredFromBackup), last: .read(.int(3)))
        #expect(after.lastFailure == nil)
        #expect(after.surfaced == .warning("Restored."), "the launch's notice stays")
    }

    @Test func launchedGivesTheValueOrFailsWithWhatTheLaunchSaid() throws {
        let app = target(launched: .unavailable("The notebook can't be opened right now."), last: nil)
        app.store = "open"
        #expect(try app.launched(app.store) == "open")
        app.store = nil
        do {
            _ = try app.launched(app.store)
            Issue.record("a missing store was handed out")
        } catch {
            #expect(ActionResult.failed(error).userMessage == "The notebook can't be opened right now.")
        }
    }

    struct Note: Identifiable { var id: Int64; var text: String }
    struct Entry { var id: Int64?; var text: String }

    @Test func aSnapshotIsOneCall() {
        let notes: [String: [String: String]] = .records("note", [Note(id: 1, text: "a"), Note(id: 2, text: "b"), Note(id: 1, text: "c")])
        #expect(notes.keys.sorted() == ["note"])
        #expect(notes["note"]?.keys.sorted() == ["note:1", "note:2"])
        #expect(notes["note"]?["note:1"]?.contains("\"a\"") == true, "the first of two with one id is kept")
        let entries: [String: [String: String]] = .records("entry", [Entry(id: 7, text: "x"), Entry(id: nil, text: "unsaved")], id: { $0.id })
        #expect(entries["entry"]?.keys.sorted() == ["entry:7"], "an optional id is unwrapped; a nil one is left out")
    }

    @Test func theContextNamesTheCaseAndItsFiles() {
        let context = TargetContext(dataDirectory: URL(fileURLWithPath: "/scratch/case-1/data"), variant: "x")
        #expect(context.path("notes.sqlite") == "/scratch/case-1/data/notes.sqlite")
        let name = context.caseName
        #expect(name.count == 22 && name.hasPrefix("chaos_") && name.dropFirst(6).allSatisfy(\.isHexDigit))
        #expect(name == TargetContext(dataDirectory: URL(fileURLWithPath: "/scratch/case-1/data"), variant: "y").caseName)
        #expect(name != TargetContext(dataDirectory: URL(fileURLWithPath: "/scratch/case-2/data"), variant: "x").caseName)
    }

    @Test func anOlderStoreIsFoundBesideTheSourceFile() {
        let store = OlderStore("v1", path: "../fixtures/v1.sqlite", besides: "/pkg/Sources/target/Target.swift", records: 3)
        #expect(store.path == "/pkg/Sources/fixtures/v1.sqlite")
    }
}
