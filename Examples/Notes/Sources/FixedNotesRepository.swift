import Foundation
import GRDB

/// The repository after Chaos: a store that will not open is moved aside (never
/// deleted) and the app starts fresh with a plain notice; a failed save is reported.
final class FixedNotesRepository: NotesRepository {
    private let queue: DatabaseQueue
    private(set) var notice: String?

    init(path: String) throws {
        do {
            let queue = try DatabaseQueue(path: path)
            let check = try queue.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else { throw NotesProblem(message: check.joined(separator: "; ")) }
            try NotesSchema.migrate(queue)
            self.queue = queue
        } catch {
            let aside = path + ".damaged-\(UUID().uuidString.prefix(8))"
            try? FileManager.default.moveItem(atPath: path, toPath: aside)
            let queue = try DatabaseQueue(path: path)
            try NotesSchema.migrate(queue)
            self.queue = queue
            notice = "Your notes could not be opened, so they were set aside and a new notebook was started."
        }
    }

    func add(_ note: Note) throws {
        do {
            try queue.write { try note.insert($0) }
        } catch {
            throw NotesProblem(message: "Your note could not be saved. Please try again.")
        }
    }

    func all() throws -> [Note] {
        do {
            return try queue.read { try Note.order(Column("id")).fetchAll($0) }
        } catch {
            throw NotesProblem(message: "Your notes could not be loaded. Please try again.")
        }
    }

    func close() { try? queue.close() }
}
