import Foundation

/// What the power-cut sweep and `chaos check` push the store to become.
///
/// - Saving: write a temporary file, fsync it, rename it over the list, fsync the
///   folder — only then is the to-do saved. An fsync that fails is not retried on the
///   same file: on Linux the pages it could not write are dropped and a second fsync
///   succeeds without them (PostgreSQL's "fsyncgate"), so the whole file is written
///   again, once, to a new temporary file.
/// - Reading: a list that cannot be read right now (an I/O error) is not damage: the
///   store does not open, and nothing is written over it. A list that does not decode
///   is set aside (never deleted); a list that is gone or set aside is restored from
///   the backup (the list before the last save, or at the last clean close), and the
///   user told; a backup that cannot be read right now keeps the store closed too.
public class FixedTodoStore: TodoList, TodoStore {
    public private(set) var notice: String?
    public private(set) var restoredFromBackup = false

    public init(url: URL) throws(TodoProblem) {
        super.init(file: url)
        try load()
    }

    public func all() -> [Todo] { todos }

    public func add(title: String) throws(TodoProblem) -> Todo {
        let todo = Todo(id: nextID, title: title, done: false)
        // The backup is the list as it stood before this save: `chaos hunt` found a to-do
        // saved, the power cut, the list deleted while the app was closed, and a backup
        // (taken only at a clean close) that knew nothing — the app started empty without
        // a word. Now the list comes back as it was, and the user is told.
        // The backup is part of the save: it is also what tells a later launch that the
        // user saved here (a hunt found it failing once, the list deleted, and the app
        // starting empty without a word). Tried twice, as the list is.
        try persistTwice(try encoded(todos), to: backup)
        try persistTwice(try encoded(todos + [todo]), to: url)
        todos.append(todo)
        return todo
    }

    /// The backup: the list as it was before the last save, or at the last clean close.
    var backup: URL { url.appendingPathExtension("backup") }

    public func close() {
        if let data = try? encoded(todos) { try? persist(data, to: backup) }
    }

    /// A save's write: tried twice, then a failed save.
    private func persistTwice(_ data: Data, to target: URL) throws(TodoProblem) {
        guard (try? persist(data, to: target)) != nil || (try? persist(data, to: target)) != nil else {
            throw TodoProblem("Your to-do could not be saved. Check the free space on this device.")
        }
    }

    /// One durable replacement of the file at `target` by `data`.
    func persist(_ data: Data, to target: URL) throws {
        let temp = target.path + ".tmp"
        let fd = open(temp, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TodoProblem("open") }
        defer { Glibc.close(fd) }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let n = write(fd, base + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        guard written, sync(fd) else {
            unlink(temp)
            throw TodoProblem("write")
        }
        guard rename(temp, target.path) == 0 else { throw TodoProblem("rename") }
        let folder = open(target.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw TodoProblem("open folder") }
        defer { Glibc.close(folder) }
        guard fsync(folder) == 0 else { throw TodoProblem("fsync folder") }
    }

    /// The temporary file's fsync: once, and a failure is a failed save.
    func sync(_ fd: Int32) -> Bool { fsync(fd) == 0 }

    private func load() throws(TodoProblem) {
        try? FileManager.default.removeItem(atPath: url.path + ".tmp")  // a save a power cut left unfinished
        var problem: String?
        if FileManager.default.fileExists(atPath: url.path) {
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw TodoProblem("Your to-do list can't be read right now. Please try again later.")
            }
            if let list = try? JSONDecoder().decode([Todo].self, from: data) {
                todos = list
                return
            }
            let aside = url.path + ".damaged-\(Int(Date().timeIntervalSince1970))"
            guard rename(url.path, aside) == 0 else {
                throw TodoProblem("Your to-do list is damaged and could not be set aside.")
            }
            problem = "Your to-do list was damaged; it was kept as \(URL(fileURLWithPath: aside).lastPathComponent)"
        }
        // A backup that is there but cannot be read right now is not "no backup": starting
        // empty would write that emptiness over it at the next save (`chaos hunt`: reads
        // failing, the list deleted, a to-do added — four to-dos gone without a word).
        var data: Data?
        if FileManager.default.fileExists(atPath: backup.path) {
            do { data = try Data(contentsOf: backup) } catch {
                throw TodoProblem("Your to-do list can't be read right now. Please try again later.")
            }
        }
        guard let data else {
            notice = problem.map { $0 + " and a new list was started." }
            return
        }
        guard let list = try? JSONDecoder().decode([Todo].self, from: data), !list.isEmpty else {
            // A backup means the app saved here before: the list is gone, and its backup
            // holds none of it. Say so; never start empty without a word.
            notice = (problem ?? "Your to-do list was missing") + " and no backup holds your to-dos, so a new list was started."
            return
        }
        todos = list
        try? persist(data, to: url)
        restoredFromBackup = true
        notice = (problem ?? "Your to-do list was missing") + ", so it was restored from the last backup."
    }
}
