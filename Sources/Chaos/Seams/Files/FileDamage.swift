import CSQLite
import ChaosTarget
import Foundation

/// Carries out a ``FileDamagePlan`` on a real file: the file-damage seam. File faults
/// decide what to do (``FileFault/plan(fileSize:rng:)``); this does it, and says what
/// it did, for the report.
///
/// ```swift
/// var rng = SplitMix64(seed: caseSeed).derived("step-5/corrupt-file")
/// let size = try FileDamage.size(of: storeURL)
/// let plan = fault.plan(fileSize: size, rng: &rng)
/// let done = try FileDamage.apply(plan, to: storeURL)   // "overwrote 100 bytes at offset 0 of …/store.sqlite"
/// ```
///
/// - Edits are written in place and synced, so the damage is on disk before the app
///   launches again. An edit that would reach past the end of the file is an error:
///   the plan was made for another size.
/// - `delete` removes exactly the named file (or folder, such as a backups folder). Its `-wal` and `-shm` are files of
///   their own; the caller decides about them.
/// - `makeReadOnly` clears every write permission bit (`chmod a-w`). Root ignores the
///   bits, and tests and workers may run as root, so the target must check the bits.
/// - `replace` copies the replacement over the file, makes the copy `0644`, and
///   removes the target's `-wal` and `-shm`: a replaced store must not be paired with
///   the old store's write-ahead log.
package enum FileDamage {
    /// The size of `file` in bytes.
    package static func size(of file: URL) throws(FileDamageError) -> Int {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        } catch {
            throw FileDamageError(path: file.path, problem: "cannot read its size: the file does not exist or cannot be read")
        }
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Applies `plan` to `file`; returns what was done, in words.
    @discardableResult
    package static func apply(_ plan: FileDamagePlan, to file: URL) throws(FileDamageError) -> String {
        let path = file.path
        switch plan {
        case let .edits(edits):
            try requireFile(file)
            guard !edits.isEmpty else { return "left \(path) unchanged (\(plan.description))" }
            try write(edits, to: file)
            return FileDamagePlan.describe(edits, past: true) + " of \(path)"

        case let .truncate(length):
            try requireFile(file)
            guard length >= 0 else { throw FileDamageError(path: path, problem: "cannot truncate to a negative length \(length)") }
            let before = try size(of: file)
            guard truncate(path, off_t(length)) == 0 else {
                throw FileDamageError(path: path, problem: "truncate failed: \(errnoText())")
            }
            return "truncated \(path) from \(before) to \(length) bytes"

        case .delete:
            // A logical "file" may be a folder of the app's (its backups): delete it whole.
            guard FileManager.default.fileExists(atPath: path) else {
                throw FileDamageError(path: path, problem: "the file does not exist")
            }
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw FileDamageError(path: path, problem: "cannot delete it: \(error.localizedDescription)")
            }
            return "deleted \(path)"

        case .makeReadOnly:
            if FolderDamage.isFolder(file) {
                // A folder: itself (no file may be made, removed or renamed in it) and every file in it.
                for name in FolderDamage.files(in: file) { _ = try apply(.makeReadOnly, to: file.appendingPathComponent(name)) }
            } else {
                try requireFile(file)
            }
            var status = stat()
            guard stat(path, &status) == 0 else { throw FileDamageError(path: path, problem: "cannot read its permissions: \(errnoText())") }
            let before = status.st_mode & 0o7777
            let after = before & ~mode_t(0o222)
            guard chmod(path, after) == 0 else { throw FileDamageError(path: path, problem: "chmod failed: \(errnoText())") }
            return "made \(path) read-only (mode \(String(before, radix: 8)) → \(String(after, radix: 8)))"

        case let .replace(replacement):
            return try replace(file, with: replacement)

        case .setAside:
            // Where to, and back, is the file seam's: it keeps the file until the clear.
            throw FileDamageError(path: path, problem: "a file set aside is the file seam's to carry out")
        }
    }

    /// Puts a copy of `replacement` in place of `file`, and removes the file's `-wal` and
    /// `-shm`: they belong to the database that is gone.
    private static func replace(_ file: URL, with replacement: URL) throws(FileDamageError) -> String {
        let path = file.path
        try requireFile(replacement, role: "replacement")
        let manager = FileManager.default
        do {
            if manager.fileExists(atPath: path) { try manager.removeItem(at: file) }
            try manager.copyItem(at: replacement, to: file)
        } catch {
            throw FileDamageError(path: path, problem: "cannot replace it with \(replacement.path): \(error.localizedDescription)")
        }
        _ = chmod(path, 0o644)
        var removed: [String] = []
        for suffix in ["-wal", "-shm"] {
            let companion = path + suffix
            guard manager.fileExists(atPath: companion) else { continue }
            do {
                try manager.removeItem(atPath: companion)
            } catch {
                throw FileDamageError(path: companion, problem: "cannot remove it after replacing the store: \(error.localizedDescription)")
            }
            removed.append((companion as NSString).lastPathComponent)
        }
        let also = removed.isEmpty ? "" : " and removed " + removed.joined(separator: ", ")
        return "replaced \(path) with a copy of \(replacement.path)\(also)"
    }

    // MARK: -

    private static func requireFile(_ file: URL, role: String = "file") throws(FileDamageError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            throw FileDamageError(path: file.path, problem: "the \(role) does not exist")
        }
        guard !isDirectory.boolValue else {
            throw FileDamageError(path: file.path, problem: "the \(role) is a directory")
        }
    }

    private static func write(_ edits: [ByteEdit], to file: URL) throws(FileDamageError) {
        let path = file.path
        let size = try size(of: file)
        for edit in edits where edit.offset < 0 || edit.offset > size - edit.bytes.count {
            throw FileDamageError(path: path, problem: "the plan reaches past the end of the file (\(edit.description), file size \(size)): it was made for another file")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forUpdating: file)
        } catch {
            throw FileDamageError(path: path, problem: "cannot open it for writing: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        do {
            for edit in edits {
                var bytes = edit.bytes
                if edit.operation == .xor {
                    try handle.seek(toOffset: UInt64(edit.offset))
                    let current = [UInt8](try handle.read(upToCount: bytes.count) ?? Data())
                    bytes = zip(bytes, current).map { $0 ^ $1 }
                }
                try handle.seek(toOffset: UInt64(edit.offset))
                try handle.write(contentsOf: bytes)
            }
            try handle.synchronize()
        } catch {
            throw FileDamageError(path: path, problem: "writing failed: \(error.localizedDescription)")
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}

/// A file-damage step that could not be carried out: a harness failure (the runner
/// reports it as `errored`), not a finding about the app.
package struct FileDamageError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var problem: String

    package init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    package var description: String { "cannot damage \(path): \(problem)" }
}

extension FileDamage {
    /// Folds the store's WAL into the store through SQLite's plain "unix" VFS (the app is
    /// down): afterwards every page SQLite reads lives in the store. Returns what it did.
    static func checkpoint(_ store: URL) -> String {
        let wal = store.path + "-wal"
        let frames = ((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? NSNumber)?.intValue ?? 0
        guard frames > 0 else { return "\(store.lastPathComponent) holds every page (no WAL to fold in)" }
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2(store.path, &db, SQLITE_OPEN_READWRITE, "unix") == SQLITE_OK, let db else {
            return "the WAL could not be folded in (SQLite cannot open \(store.lastPathComponent))"
        }
        let rc = sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil)
        return rc == SQLITE_OK ? "folded \(store.lastPathComponent)-wal (\(frames) bytes) into \(store.lastPathComponent) first"
            : "the WAL could not be folded in: \(String(cString: sqlite3_errmsg(db)))"
    }
}
