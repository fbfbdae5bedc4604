import Foundation

/// One to-do, as the app keeps it: a Codable value in a JSON array, one file for all.
public struct Todo: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var title: String
    public var done: Bool
}

/// What the screen shows when the list cannot be saved or read: its `errorDescription`,
/// as a `LocalizedError`'s.
public struct TodoProblem: LocalizedError, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}

/// The app's store: the whole list in `todos.json`, rewritten on every change, as small
/// apps keep their data when they keep it without a database. Two ways to write it:
/// ``FragileTodoStore`` (what such apps ship) and ``FixedTodoStore`` (what the power-cut
/// sweep pushes them to become); ``AtomicWriteTodoStore`` is Foundation's own atomic
/// write, in between.
public protocol TodoStore: AnyObject {
    /// What the app told the user at launch (its list was set aside), if anything.
    var notice: String? { get }
    /// The list was put back from its backup at launch.
    var restoredFromBackup: Bool { get }
    func all() -> [Todo]
    /// Adds a to-do and saves the list; returns it once saved.
    func add(title: String) throws(TodoProblem) -> Todo
    /// The app goes to the background: a good moment for a backup.
    func close()
}

/// The store a build of the app writes its list with: `fragile`, `atomic-write`,
/// `retries-fsync`, or (any other name) the fixed one.
public func openTodoStore(variant: String, url: URL) throws(TodoProblem) -> any TodoStore {
    switch variant {
    case "fragile": FragileTodoStore(url: url)
    case "atomic-write": try AtomicWriteTodoStore(url: url)
    case "retries-fsync": try RetryingFsyncTodoStore(url: url)
    default: try FixedTodoStore(url: url)
    }
}

/// The list in memory, and its file; the stores differ in how they write and read it.
public class TodoList {
    public let url: URL
    public internal(set) var todos: [Todo] = []

    init(file url: URL) { self.url = url }

    var nextID: Int { (todos.map(\.id).max() ?? 0) + 1 }

    func encoded(_ list: [Todo]) throws(TodoProblem) -> Data {
        do { return try JSONEncoder().encode(list) } catch { throw TodoProblem("Your to-do list could not be saved.") }
    }
}
