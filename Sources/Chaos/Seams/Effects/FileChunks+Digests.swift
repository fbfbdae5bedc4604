import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of files as chunk digests: what a damaged file held, and what the app's
/// data folder holds at the end of the case (``FileDamageMark``). Whole 4 KiB chunks at
/// 4 KiB offsets: a file set aside by a rename or a copy keeps every one; a SQLite page
/// of the usual size is one.
extension FileChunks {
    static let digestSize = 4096

    /// The digests of `url`'s chunks, all-zero chunks left out (zeroed pages prove
    /// nothing kept); empty when it cannot be read.
    static func digests(of url: URL) -> Set<UInt64> {
        var digests = Set<UInt64>()
        read(url.path, size: digestSize) { chunk in
            if chunk.contains(where: { $0 != 0 }) { digests.insert(fnv1a(chunk)) }
        }
        return digests
    }

    /// The digests of every regular file's chunks under `folder`, at any depth.
    static func digests(under folder: URL) -> Set<UInt64> {
        var all = Set<UInt64>()
        for url in regularFiles(under: folder) { all.formUnion(digests(of: url)) }
        return all
    }

    /// The device and inode of the regular file at `url` (nil: none there): a file renamed
    /// aside keeps them, whatever SQLite writes into it on its way out (a checkpoint on
    /// close rewrites its pages).
    static func identity(of url: URL) -> FileIdentity? {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identity of every regular file under `folder`, by its path.
    static func identities(under folder: URL) -> [String: FileIdentity] {
        var found: [String: FileIdentity] = [:]
        for url in regularFiles(under: folder) { found[url.standardizedFileURL.path] = identity(of: url) }
        return found
    }

    /// Whether the file at `url`, or some file in the folder at `url`, holds a byte.
    static func holdsData(_ url: URL) -> Bool {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return false }
        if info.st_mode & S_IFMT == S_IFREG { return info.st_size > 0 }
        return info.st_mode & S_IFMT == S_IFDIR && regularFiles(under: url).contains { holdsData($0) }
    }

    /// The regular files under `folder` (symbolic links not followed).
    private static func regularFiles(under folder: URL) -> [URL] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return names.map { folder.appendingPathComponent($0) }.filter { url in
            var info = stat()
            return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// FNV-1a, 64 bits: enough to tell chunks of one folder apart, and no dependency.
    static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
