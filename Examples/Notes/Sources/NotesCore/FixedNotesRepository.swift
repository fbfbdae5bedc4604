import FaultPoints
import Foundation
import GRDB

/// The repository after Chaos, with what `chaos check` taught it:
///
/// - a store SQLite says is damaged (not a database, corrupt, failing its check) is
///   moved aside, never deleted, and the newest backup is put back with a notice;
/// - a store that is missing or emptied while a backup holds notes is put back too;
/// - a failure of the device (an I/O error, a full disk) is not damage: nothing is
///   moved, the notebook is unavailable for now and says so, the next launch retries; a
///   store that looks damaged is opened a second time before it is called damaged;
/// - a failed save is reported, never swallowed.
///
/// The backup is taken with SQLite's online backup at every clean close, and after every
/// save: `chaos hunt` found a note saved, the power cut, then the store emptied while the
/// app was closed — with the backup only at a clean close there was none to restore, and
/// the note was gone without a word.
public final class FixedNotesRepository: NotesRepository {
    private let queue: DatabaseQueue
    private let path: String
    public private(set) var notice: String?

    public init(path: String) throws {
        self.path = path
        let backup = path + ".backup"
        do {
            let queue = try Self.openTwice(path)
            // A backup that cannot be read is no proof the notebook was empty: an empty
            // store beside one is put back as one beside a backup with notes (`chaos hunt`
            // found the backup damaged, then the store emptied, and the notes gone unsaid).
            if try queue.read({ try Note.fetchCount($0) }) == 0, Self.noteCount(inBackup: backup) != 0 {
                throw NotesProblem(message: "the notebook is empty, its backup is not")
            }
            self.queue = queue
        } catch let error as DatabaseError where ![.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            throw NotesProblem(message: "Your notes can't be opened right now. Please try again later.")
        } catch {
            (queue, notice) = try Self.setAside(path, restoringFrom: backup)
        }
    }

    /// Moves the store aside with its journals (a journal left beside the restored copy
    /// would be played into it: `chaos hunt` found the notebook unavailable for good after
    /// a torn cut), puts the backup back, and, when the backup will not open either, sets
    /// it aside too and starts a new notebook: told, never unavailable for ever.
    private static func setAside(_ path: String, restoringFrom backup: String) throws -> (DatabaseQueue, String) {
        let aside = path + ".damaged-\(UUID().uuidString.prefix(8))"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix) }
        if FileManager.default.fileExists(atPath: backup), (try? FileManager.default.copyItem(atPath: backup, toPath: path)) != nil,
           let queue = try? openTwice(path) {
            return (queue, "Your notebook was damaged, so it was set aside and your notes were restored from the last backup.")
        }
        for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
        try? FileManager.default.moveItem(atPath: backup, toPath: aside + ".backup")
        return (try open(path), "Your notes could not be opened, so they were set aside and a new notebook was started.")
    }

    /// ``open(_:)``, once more when the store looks damaged: a read the device cut short
    /// looks like damage once, and reads whole the next time (`chaos hunt`: two short
    /// reads set aside the ledger example's good store and copy; this notebook opened the same way).
    private static func openTwice(_ path: String) throws -> DatabaseQueue {
        do { return try open(path) } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            return try open(path)
        }
    }

    /// Opens and checks the store; creates it on a first launch.
    private static func open(_ path: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path)
        let check = try queue.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
        guard check == ["ok"] else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check.joined(separator: "; ")) }
        try NotesSchema.migrate(queue)
        return queue
    }

    /// The notes the backup holds: 0 when there is none, nil when it cannot be read.
    private static func noteCount(inBackup backup: String) -> Int? {
        guard FileManager.default.fileExists(atPath: backup) else { return 0 }
        return try? DatabaseQueue(path: backup).read { try Note.fetchCount($0) }
    }

    public func add(text: String) throws -> Note {
        do {
            try FaultPoint.notesSave.hit()
            // The backup is part of the save: a note saved while no backup could be taken
            // lives in the store alone (`chaos hunt`: the backup could not be opened, the
            // store was deleted, and the note gone without a word).
            guard backUp() else { throw NotesProblem(message: "Your note could not be saved. Please try again.") }
            let note = try queue.write { try NotesSchema.insert(text: text, in: $0) }
            backUp()
            return note
        } catch {
            throw NotesProblem(message: "Your note could not be saved. Please try again.")
        }
    }

    public func all() throws -> [Note] {
        do {
            return try queue.read { try Note.order(Column("id")).fetchAll($0) }
        } catch {
            throw NotesProblem(message: "Your notes could not be loaded. Please try again.")
        }
    }

    public func close() {
        backUp()
        try? queue.close()
    }

    /// SQLite's online backup into `PATH.backup`, committed (and synced) as any
    /// transaction of it is. A failed backup leaves the last good one, and says so (false).
    @discardableResult
    private func backUp() -> Bool {
        guard let backup = try? DatabaseQueue(path: path + ".backup") else { return false }
        return (try? queue.backup(to: backup)) != nil
    }
}
