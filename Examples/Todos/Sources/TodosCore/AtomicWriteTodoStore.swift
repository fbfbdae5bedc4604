import Foundation

/// Foundation's own answer: `Data.write(to:options: .atomic)`. On Linux it writes a
/// temporary file, fsyncs it and renames it over the list — but never fsyncs the
/// folder, so after a power cut the rename may not have happened: the list is the one
/// before the save. Everything else is ``FixedTodoStore``'s.
public final class AtomicWriteTodoStore: FixedTodoStore {
    override func persist(_ data: Data, to target: URL) throws {
        try data.write(to: target, options: .atomic)
    }
}
