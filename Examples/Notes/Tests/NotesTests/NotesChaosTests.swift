import ChaosTesting
import Foundation
import NotesCore
import Testing

/// The notes example's own tests, as a user of Chaos writes them: each scenario of
/// `Examples/Notes/scenarios` as a test of the notebook, and a unit test of the
/// repository with a fault scoped to it.
@Suite struct NotesChaosTests {
    static let target = TargetUnderTest.product("chaos-example-notes")

    /// Every scenario the example ships, on the fixed notebook: it survives them all.
    @Test(arguments: scenarioFiles(in: "../../scenarios"))
    func theFixedNotebookSurvives(_ scenario: ScenarioFile) async throws {
        try await expectSurvives(scenario, target: Self.target, variant: "fixed")
    }

    /// The fragile notebook `try!`s its way through start-up: a damaged store traps it.
    /// A known issue — the test says so, and would say if it ever stopped trapping.
    @Test func theFragileNotebookTrapsOnADamagedStore() async throws {
        await withKnownIssue("the fragile repository traps at start-up on a damaged store") {
            try await expectSurvives("../../scenarios/notes-corrupted.yaml", target: Self.target, variant: "fragile")
        }
    }

    /// A save that fails is reported to the user, and the next one works. The fault is
    /// this test's alone: tests beside it in parallel never see it.
    @Test(.faults(.throw(at: "store/notes/save", times: 1)))
    func aFailedSaveIsReportedAndTheNextOneWorks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-notes-unit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let repository = try FixedNotesRepository(path: folder.appendingPathComponent("notes.sqlite").path)
        defer { repository.close() }
        #expect(throws: NotesProblem.self) { try repository.add(text: "lost to the fault") }
        _ = try repository.add(text: "kept")
        #expect(try repository.all().map(\.text) == ["kept"])
    }

    /// The fragile repository swallows the same failure: it tells the user nothing.
    @Test func theFragileRepositorySwallowsAFailedSave() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-notes-unit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let repository = FragileNotesRepository(path: folder.appendingPathComponent("notes.sqlite").path)
        defer { repository.close() }
        let note = try withFaults([.throw(at: "store/notes/save", times: 1)]) { try repository.add(text: "lost") }
        #expect(note.id == 0, "reported as saved, with no id")
        #expect(try repository.all().isEmpty, "and not in the store")
    }
}
