import Foundation
import GRDB

/// Every read-only look the app takes at a store file (the launch's peek, a check of a
/// backup, a store the app may not write, salvage from a damaged one) opens it here.
///
/// Why: a WAL SQLite can read no frame from — its 32-byte header alone, or a header
/// that is not a WAL header (a torn write, garbage) — beside a `-shm` the app cannot
/// write (a store it may not write gets a `-shm` it may not write either, made by its
/// first read-only look) sends SQLite 3.40's read-only WAL reader into its retry loop
/// (`walBeginShmUnreliable` rebuilds its index, finds no salt to match, retries): about
/// 10 s, then SQLITE_PROTOCOL ("locking protocol"), on every look. A crash sweep's
/// launch made two such looks and its next list a third: 20 s of an app that did not
/// answer. A WAL SQLite reads nothing from is left out (`immutable=1`: no WAL, no
/// locks), which shows exactly what SQLite would have shown had it got there.
enum ReadOnlyStore {
    static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        let name = walHoldsNothing(path + "-wal") ? immutableURI(path) : path
        return try DatabaseQueue(path: name, configuration: configuration)
    }

    /// Whether the WAL at `path` is one SQLite reads no frame from: at least a header
    /// long, and either not a valid WAL header or no complete frame after it. (Shorter
    /// than a header, SQLite reads the store alone, and does not loop.)
    static func walHoldsNothing(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 32, (try? handle.seek(toOffset: 0)) != nil,
              let header = try? handle.read(upToCount: 32), header.count == 32 else { return false }
        let bytes = [UInt8](header)
        func word(_ offset: Int) -> UInt32 { bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        let magic = word(0), version = word(4)
        let pageSize = word(8) == 1 ? 65_536 : word(8)  // how a WAL writes the largest page size
        let knownMagic: Bool = magic == 0x377f_0682 || magic == 0x377f_0683
        let knownPageSize: Bool = pageSize >= 512 && pageSize <= 65_536 && pageSize & (pageSize - 1) == 0
        guard knownMagic, version == 3_007_000, knownPageSize else { return true }
        let firstFrameEnd: UInt64 = 32 + 24 + UInt64(pageSize)
        return size < firstFrameEnd
    }

    /// `file:PATH?immutable=1`, the path escaped as a URI filename needs.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }
}
