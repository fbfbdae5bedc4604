import CChaosVFS
import CSQLite

/// A copy of SQLite a target's storage runs on, by the four functions Chaos needs to
/// install its fault VFS into it. The system's library is ``system``; a stack that
/// compiles its own copy under other names (sqlite-nio, SQLCipher) names that copy's —
/// its `sqlite3_vfs` type is its own, so the first two go through a small closure:
///
/// ```swift
/// import VaporCSQLite   // sqlite-nio's copy
///
/// static let sqlite = [SQLiteLibrary(
///     vfsFind: { OpaquePointer(sqlite_nio_sqlite3_vfs_find($0)) },
///     vfsRegister: { sqlite_nio_sqlite3_vfs_register(UnsafeMutablePointer($0), $1) },
///     malloc: sqlite_nio_sqlite3_malloc, free: sqlite_nio_sqlite3_free)]
/// ```
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

    /// The system's libsqlite3: GRDB, SQLite.swift, the C API.
    public static let system = SQLiteLibrary(
        vfsFind: { OpaquePointer(sqlite3_vfs_find($0)) },
        vfsRegister: { sqlite3_vfs_register(UnsafeMutablePointer($0), $1) },
        malloc: sqlite3_malloc, free: sqlite3_free)

    /// A copy by its `sqlite3_vfs_find`, `sqlite3_vfs_register`, `sqlite3_malloc` and
    /// `sqlite3_free`, under whatever names it has.
    public init(vfsFind: VFSFind, vfsRegister: VFSRegister, malloc: Malloc, free: Free) {
        self.vfsFind = unsafeBitCast(vfsFind, to: UInt.self)
        self.vfsRegister = unsafeBitCast(vfsRegister, to: UInt.self)
        self.malloc = unsafeBitCast(malloc, to: UInt.self)
        self.free = unsafeBitCast(free, to: UInt.self)
    }

    /// Installs the fault VFS into this copy, as its default VFS.
    func install() throws(SQLiteFaultVFS.RegistrationError) {
        var api = chaos_sqlite_api(
            vfs_find: unsafeBitCast(vfsFind, to: (@convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<sqlite3_vfs>?).self),
            vfs_register: unsafeBitCast(vfsRegister, to: (@convention(c) (UnsafeMutablePointer<sqlite3_vfs>?, Int32) -> Int32).self),
            malloc: unsafeBitCast(malloc, to: (@convention(c) (Int32) -> UnsafeMutableRawPointer?).self),
            free: unsafeBitCast(free, to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self))
        let rc = chaos_vfs_register_library(&api, 1)
        guard rc == SQLITE_OK else { throw SQLiteFaultVFS.RegistrationError(code: rc) }
    }
}
