internal import CChaosVFS

/// The "chaos" SQLite VFS: a pass-through shim over "unix" (in the C target
/// `CChaosVFS`) that every connection goes through once it is registered as
/// the default. The C side is mechanism only; deciding what to fail is policy
/// and lives on this side.
package enum SQLiteFaultVFS {
    /// Registration failed; `code` is the SQLite result code.
    package struct RegistrationError: Error, Equatable, CustomStringConvertible {
        package let code: Int32
        /// Why, when SQLite's code does not say it (a copy of SQLite that was not found).
        package var reason: String?

        package init(code: Int32, reason: String? = nil) {
            self.code = code
            self.reason = reason
        }

        package var description: String {
            "registering the \"\(SQLiteFaultVFS.name)\" SQLite VFS failed: "
                + (reason ?? "\(String(cString: chaos_vfs_errstr(code))) (\(code))")
        }
    }

    /// The name the VFS registers under.
    package static let name: String = CHAOS_VFS_NAME

    /// Registers the VFS, by default as the default VFS of every connection
    /// opened afterwards in this process (GRDB's included). Idempotent and
    /// thread-safe: later calls are no-ops, except that `makeDefault: true`
    /// makes it the default again if something else had taken over.
    package static func register(makeDefault: Bool = true) throws {
        let rc = chaos_vfs_register(makeDefault ? 1 : 0)
        guard rc == ok else { throw RegistrationError(code: rc) }
    }

    /// The VFS name of the connection's "main" database, as answered by
    /// `SQLITE_FCNTL_VFSNAME` (e.g. "chaos/unix"), or nil if it cannot tell.
    package static func vfsName(ofConnection db: OpaquePointer) -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard chaos_vfs_name_of_connection(UnsafeMutableRawPointer(db), &name, Int32(name.count)) == ok else { return nil }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// SQLite's `SQLITE_OK` and `SQLITE_ERROR` (this module sees no sqlite3.h: CChaosVFS's header).
    package static let ok: Int32 = 0
    package static let error: Int32 = 1

    /// The durability settings the app gave its store through the VFS; nil before it set any.
    package static var storeSettings: StoreSettings? {
        var synchronous: Int32 = -1
        var wal: Int32 = -1
        chaos_vfs_store_settings(&synchronous, &wal)
        guard synchronous >= 0 || wal >= 0 else { return nil }
        let names = ["off", "normal", "full", "extra"]
        return StoreSettings(synchronous: names.indices.contains(Int(synchronous)) ? names[Int(synchronous)] : nil,
                             wal: wal < 0 ? nil : wal == 1)
    }
}
