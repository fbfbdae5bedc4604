import ChaosTarget
import NotesCore

/// The example's Chaos target: the glue between Chaos and the notes app. `chaos check
/// --target-exec PATH --variant fragile|fixed` runs the storage catalog on it.
@main
final class NotesTarget: ChaosTarget {
    // The store the catalog damages; its -wal, -shm, -journal are found beside it.
    /// The notebook and its backup (taken after every save): a fault may aim at either.
    static let files = ["store": "notes.sqlite", "backup": "notes.sqlite.backup"]
    // What --variant may name; the first is the default.
    static let variants = ["fixed", "fragile"]
    // The catalog's contract: an action that saves one record, one that reads them back.
    static let workload: Workload? = Workload(write: "notes.add", read: "notes.list")
    // What a user does. A thrown NotesProblem fails the action, its message on screen.
    static let actions: [TargetAction<NotesTarget>] = [
        TargetAction("notes.add", parameters: [.int("count", in: 1...10_000)]) { target, call in
            let repository = try target.launched(target.repository)  // or fail, saying what the launch said
            for _ in 0..<(try call.int("count", default: 1)) {
                call.acknowledge(try repository.add(text: "a note"), in: "note")  // the app said "saved", and what
            }
            return .done()
        },
        TargetAction("notes.list", parameters: []) { target, _ in .read(.int(try target.repository?.all().count ?? 0)) },
    ]

    private let context: TargetContext  // .dataDirectory, .variant, .options, .seed, .remotes
    private var repository: NotesRepository?

    init(context: TargetContext) { self.context = context }

    // Opens the store as the app does, never traps, and says what it found: `health`
    // and what the screen shows (`surfaced`) follow from it and from the last action.
    func launch() async -> Health {
        let path = context.path("notes.sqlite")
        do {
            repository = context.variant == "fragile" ? FragileNotesRepository(path: path) : try FixedNotesRepository(path: path)
            return .warning(repository?.notice, mode: "set-aside")
        } catch {
            return .unavailable((error as? NotesProblem)?.message ?? "The notebook is not available.")
        }
    }

    // Every note, under the key the add action acknowledged: "note:ID".
    func snapshot() async throws -> [String: [String: String]] { .records("note", (try? repository?.all()) ?? []) }

    func stop() async { repository?.close() }
}
