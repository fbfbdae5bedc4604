import Foundation
import NotesCore

/// A notebook kept on the device and synced to the app's own server: what the screen
/// talks to. Two implementations: the fragile one a team might ship first, and the fixed
/// one `chaos check` pushed them to write. Both keep their notes in the Notes example's
/// fixed repository, so that what `chaos check` finds here is the sync's doing.
@MainActor
public protocol SyncedNotes: AnyObject {
    /// Adds a note; `acknowledge` is called with its key the moment the user is told it
    /// is saved. Returns what the screen shows when it was not.
    func add(text: String, acknowledge: (String) -> Void) async -> String?
    /// Pushes what the server lacks; false when it could not.
    func sync() async -> Bool
    /// Every note on the device.
    func notes() throws -> [Note]
    /// What the screen said at launch about the notebook itself (it was set aside), if anything.
    var notice: String? { get }
    /// What the screen says about syncing, if anything.
    var syncNotice: String? { get }
    /// The screen shows every note as synced (no "saved on this device only").
    var showsAllSynced: Bool { get }
    /// The app has started: what it does first (the fixed one syncs what it has).
    func started() async
    /// The app stops: the repository closes (and takes its backup).
    func close()
}

extension SyncedNotes {
    /// The keys of the notes the screen shows as synced: every note while it shows no
    /// "saved on this device only".
    public var syncedKeys: [String] {
        guard showsAllSynced, let notes = try? notes() else { return [] }
        return notes.map { SyncedNote.key(of: $0.text) }
    }
}

/// Opens the notebook as a build of the app does (`fragile`, or the fixed one), on the
/// Notes example's fixed repository at `path`, syncing to `server`, and starts it.
@MainActor
public func openSyncedNotes(variant: String, path: String, server: URL?) async throws(NotesProblem) -> any SyncedNotes {
    let repository: FixedNotesRepository
    do {
        repository = try FixedNotesRepository(path: path)
    } catch {
        throw (error as? NotesProblem) ?? NotesProblem(message: "The notebook is not available.")
    }
    let notebook: any SyncedNotes = variant == "fragile" ? FragileSyncedNotes(repository: repository, server: server)
        : FixedSyncedNotes(repository: repository, server: server)
    await notebook.started()
    return notebook
}

/// Fragile: the server first, trusted. No timeout (URLSession's minute), and a note whose
/// sync failed is dropped, though the screen said "saved": the note's key is
/// acknowledged before the answer is known, as an optimistic UI does.
@MainActor
public final class FragileSyncedNotes: SyncedNotes {
    private let repository: FixedNotesRepository
    private let client: SyncClient?

    public init(repository: FixedNotesRepository, server: URL?) {
        self.repository = repository
        client = server.map { SyncClient(server: $0, timeout: nil) }
    }

    public func add(text: String, acknowledge: (String) -> Void) async -> String? {
        acknowledge(SyncedNote.key(of: text))
        do {
            _ = try await client?.put(id: SyncedNote.tag(of: text), text: text)
            _ = try repository.add(text: text)
        } catch {
            // The sync failed: the note is gone, and no one is told.
        }
        return nil
    }

    public func sync() async -> Bool { true }
    public func notes() throws -> [Note] { try repository.all() }
    public var notice: String? { repository.notice }
    public var syncNotice: String? { nil }
    public var showsAllSynced: Bool { client != nil }
    public func started() async {}
    public func close() { repository.close() }
}

/// Fixed: the device first. A note is saved locally (and only then acknowledged), pushed
/// with a 2-second timeout, and kept for a later sync when the push fails; the screen
/// says so until a sync gets through. A put is idempotent by id, so a push whose answer
/// was lost is simply made again. After a failed exchange, saves do not wait on the
/// server for ``quietPeriod``: `chaos hunt` found a server that swallowed every request
/// costing each save its full 2 s (nine notes, and the app stopped answering for 20 s).
@MainActor
public final class FixedSyncedNotes: SyncedNotes {
    private let repository: FixedNotesRepository
    private let client: SyncClient?
    /// A push failed and no sync has got through since.
    private var unsynced = false
    /// After a failed exchange, a save pushes nothing until then (a sync still tries).
    private var quietUntil: ContinuousClock.Instant?
    static let quietPeriod: Duration = .seconds(30)

    public init(repository: FixedNotesRepository, server: URL?) {
        self.repository = repository
        client = server.map { SyncClient(server: $0, timeout: .seconds(2)) }
    }

    public func add(text: String, acknowledge: (String) -> Void) async -> String? {
        let note: Note
        do {
            note = try repository.add(text: text)
        } catch let problem as NotesProblem {
            return problem.message
        } catch {
            return "The note could not be saved. Please try again."
        }
        acknowledge(SyncedNote.key(of: note.text))
        guard let client else { return nil }
        if let quietUntil, ContinuousClock.now < quietUntil {
            unsynced = true  // kept on the device; the next sync takes it
            return nil
        }
        do {
            _ = try await client.put(id: SyncedNote.tag(of: note.text), text: note.text)
            quietUntil = nil
        } catch {
            unsynced = true
            quietUntil = ContinuousClock.now + Self.quietPeriod
        }
        return nil
    }

    public func sync() async -> Bool {
        guard let client else { return false }
        do {
            let stored = try await client.storedIDs()
            for note in try repository.all() where !stored.contains(SyncedNote.tag(of: note.text)) {
                _ = try await client.put(id: SyncedNote.tag(of: note.text), text: note.text)
            }
            unsynced = false
            quietUntil = nil
            return true
        } catch {
            unsynced = true
            quietUntil = ContinuousClock.now + Self.quietPeriod
            return false
        }
    }

    public func notes() throws -> [Note] { try repository.all() }
    /// Syncs what the last session could not.
    public func started() async { _ = await sync() }
    public func close() { repository.close() }
    public var notice: String? { repository.notice }

    public var syncNotice: String? {
        unsynced ? "Some notes are saved on this device only; they will sync when the connection is back." : nil
    }

    public var showsAllSynced: Bool { client != nil && !unsynced }
}

/// A note's identity across the device and the server: a tag the app makes when the user
/// writes it (`a note 1A2B3C4D`), carried in its text, as a client-made id is.
public enum SyncedNote {
    /// A new note's text, with a tag of its own.
    public static func newText() -> String {
        "a note \(UUID().uuidString.prefix(8))"
    }

    /// The tag of a note's text (its last word).
    public static func tag(of text: String) -> String {
        text.split(separator: " ").last.map(String.init) ?? text
    }

    /// The record's key in acknowledgements and snapshots.
    public static func key(of text: String) -> String {
        "note:\(tag(of: text))"
    }
}
