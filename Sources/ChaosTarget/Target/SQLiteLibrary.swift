internal import CChaosVFS

/// A copy of SQLite a target's storage runs on, by the four functions Chaos needs to
/// install its fault VFS into it. The system's library is ``system``; a stack that
/// compiles its own copy under other names names it in one line — sqlite-nio's (and so
/// Fluent's, Vapor's, Hummingbird's) is ``sqliteNIO``, any other by its prefix:
///
/// ```swift
/// static let sqlite = [SQLiteLibrary.sqliteNIO]            // sqlite_nio_sqlite3_*
/// static let sqlite = [SQLiteLibrary.linked(prefix: "my_")] // my_sqlite3_*
/// ```
///
/// Those are found by name in the executable's own symbol table, so nothing of the
/// copy's C module has to be imported. A stripped executable has none: name the four
/// functions yourself with ``init(vfsFind:vfsRegister:malloc:free:)``.
///
/// A target on plain files declares none (`static let sqlite: [SQLiteLibrary] = []`):
/// its storage faults then go through Chaos's libc seam.
public struct SQLiteLibrary: Sendable {
    public typealias VFSFind = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    public typealias VFSRegister = @convention(c) (OpaquePointer?, Int32) -> Int32
    public typealias Malloc = @convention(c) (Int32) -> UnsafeMutableRawPointer?
    public typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    // The functions' addresses, kept as integers (code addresses: immutable, Sendable).
    let vfsFind: UInt
    let vfsRegister: UInt
    let malloc: UInt
    let free: UInt
    /// Why the copy could not be found (a linked copy under a prefix), nil when it was.
    let missing: String?

    /// The system's libsqlite3: GRDB, SQLite.swift, the C API. (Its entry points come
    /// from CChaosVFS, the one place that names them: no sqlite3.h reaches this module.)
    public static let system: SQLiteLibrary = {
        let api = chaos_vfs_system_api()
        return SQLiteLibrary(addresses: [unsafeBitCast(api.vfs_find, to: UInt.self), unsafeBitCast(api.vfs_register, to: UInt.self),
                                         unsafeBitCast(api.malloc, to: UInt.self), unsafeBitCast(api.free, to: UInt.self)],
                             missing: nil)
    }()

    /// A copy by its `sqlite3_vfs_find`, `sqlite3_vfs_register`, `sqlite3_malloc` and
    /// `sqlite3_free`, under whatever names it has.
    public init(vfsFind: VFSFind, vfsRegister: VFSRegister, malloc: Malloc, free: Free) {
        self.vfsFind = unsafeBitCast(vfsFind, to: UInt.self)
        self.vfsRegister = unsafeBitCast(vfsRegister, to: UInt.self)
        self.malloc = unsafeBitCast(malloc, to: UInt.self)
        self.free = unsafeBitCast(free, to: UInt.self)
        missing = nil
    }

    /// A copy compiled into the executable with every symbol renamed `PREFIXsqlite3_…`,
    /// found by name in the executable's symbol table.
    public static func linked(prefix: String) -> SQLiteLibrary {
        let names = ["vfs_find", "vfs_register", "malloc", "free"].map { "\(prefix)sqlite3_\($0)" }
        let addresses = names.map { UInt(bitPattern: chaos_linked_symbol($0)) }
        let absent = zip(names, addresses).filter { $0.1 == 0 }.map(\.0)
        return SQLiteLibrary(addresses: addresses, missing: absent.isEmpty ? nil
            : "no \(absent.joined(separator: ", ")) in this executable's symbol table (is it stripped, or is the prefix not '\(prefix)'?): "
                + "name the copy's four functions with SQLiteLibrary(vfsFind:vfsRegister:malloc:free:)")
    }

    /// sqlite-nio's copy (and so Fluent's SQLite driver's, Vapor's, Hummingbird's).
    public static var sqliteNIO: SQLiteLibrary { linked(prefix: "sqlite_nio_") }

    private init(addresses: [UInt], missing: String?) {
        vfsFind = addresses[0]
        vfsRegister = addresses[1]
        malloc = addresses[2]
        free = addresses[3]
        self.missing = missing
    }

    /// Installs the fault VFS into this copy, as its default VFS.
    func install() throws(SQLiteFaultVFS.RegistrationError) {
        if let missing { throw SQLiteFaultVFS.RegistrationError(code: SQLiteFaultVFS.error, reason: missing) }
        var api = chaos_sqlite_api(
            vfs_find: unsafeBitCast(vfsFind, to: (@convention(c) (UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?).self),
            vfs_register: unsafeBitCast(vfsRegister, to: (@convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32).self),
            malloc: unsafeBitCast(malloc, to: (@convention(c) (Int32) -> UnsafeMutableRawPointer?).self),
            free: unsafeBitCast(free, to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self))
        let rc = chaos_vfs_register_library(&api, 1)
        guard rc == SQLiteFaultVFS.ok else { throw SQLiteFaultVFS.RegistrationError(code: rc) }
    }
}
