import Foundation
import GRDB

/// The repository as first shipped — deliberately fragile, so Chaos has something to
/// find: `try!` when the store will not open, and a save whose error is swallowed.
/// (This is example code of what NOT to do; it lives only in this example.)
final class FragileNotesRepository: NotesRepository {
    private let queue: DatabaseQueue
    let notice: String? = nil

    init(path: String) {
        // swiftlint:disable:next force_try
        queue = try! DatabaseQueue(path: path)
        // swiftlint:disable:next force_try
        try! NotesSchema.migrate(queue)
    }

    func add(text: String) throws -> Note {
        let note = try? queue.write { try NotesSchema.insert(text: text, in: $0) }  // the error never reaches the user
        return note ?? Note(id: 0, text: text)
    }

    func all() throws -> [Note] {
        try queue.read { try Note.order(Column("id")).fetchAll($0) }
    }

    func close() { try? queue.close() }
}
