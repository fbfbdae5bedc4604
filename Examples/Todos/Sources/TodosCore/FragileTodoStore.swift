import Foundation

/// What small apps ship: the list written to a temporary file through `FileHandle`, the
/// old file removed, the new one moved in its place — no fsync of the file, none of its
/// folder. Right until the power goes: then the new file may be empty, or missing, and
/// the save the user saw succeed is gone. A damaged file traps at launch (`try!`).
public final class FragileTodoStore: TodoList, TodoStore {
    public var notice: String? { nil }
    public var restoredFromBackup: Bool { false }
    public func close() {}

    public init(url: URL) {
        super.init(file: url)
        if let data = try? Data(contentsOf: url) {
            todos = try! JSONDecoder().decode([Todo].self, from: data)
        }
    }

    public func all() -> [Todo] { todos }

    public func add(title: String) throws(TodoProblem) -> Todo {
        let todo = Todo(id: nextID, title: title, done: false)
        let data = try encoded(todos + [todo])
        let temp = url.appendingPathExtension("tmp")
        do {
            _ = FileManager.default.createFile(atPath: temp.path, contents: nil)
            let handle = try FileHandle(forWritingTo: temp)
            try handle.write(contentsOf: data)
            try handle.close()
            try? FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: temp, to: url)
        } catch {
            throw TodoProblem("Your to-do could not be saved.")
        }
        todos.append(todo)
        return todo
    }
}
