import FaultPoints
import Foundation
import GRDB

/// The repository as first shipped — deliberately fragile, so Chaos has something to
/// find: `try!` when the store will not open, and a save whose error is swallowed.
/// (This is example code of what NOT to do; it lives only in this example.)
public final class FragileNotesRepository: NotesRepository {
    private let queue: DatabaseQueue
    public let notice: String? = nil

    public init(path: String) {
        // swiftlint:disable:next force_try
        queue = try! DatabaseQueue(path: path)
        // swiftlint:disable:next force_try
        try! NotesSchema.migrate(queue)
    }

    public func add(text: String) throws -> Note {
        let note = try? { () throws -> Note in
            try FaultPoint.notesSave.hit()
            return try queue.write { try NotesSchema.insert(text: text, in: $0) }
        }()  // the error never reaches the user
        return note ?? Note(id: 0, text: text)
    }

    public func all() throws -> [Note] {
        try queue.read { try Note.order(Column("id")).fetchAll($0) }
    }

    public func close() { try? queue.close() }
}
