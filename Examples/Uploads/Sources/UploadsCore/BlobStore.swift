import Foundation
import _NIOFileSystem

/// An upload as the server keeps it: a file in its blobs folder, served back as it is
/// read. Its `digest` is of the bytes the server has (64-bit FNV-1a: a check against
/// damage, not against an attacker), so a snapshot of what it serves shows damage.
public struct Blob: Sendable, Equatable, Identifiable {
    /// The file's name in the blobs folder: `file-0001.bin`.
    public var id: String
    public var size: Int
    public var digest: String

    public init(id: String, bytes: [UInt8]) {
        self.id = id
        size = bytes.count
        digest = Self.digest(of: bytes)
    }

    /// 64-bit FNV-1a of `bytes`, as 16 hex digits.
    public static func digest(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// What the upload screen is told when something goes wrong, in plain words.
public struct UploadProblem: LocalizedError, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}

/// The upload server's store: a folder of files written through swift-nio's
/// `_NIOFileSystem` (a new file is `O_TMPFILE` + `linkat`; a re-upload replaces it).
/// Two variants: the one first shipped, and the one `chaos check` pushed it to.
public protocol BlobStore: Sendable {
    /// What the user was told at launch, if anything.
    var notice: String? { get async }
    /// Stores `bytes` as `name`, replacing an earlier upload of that name.
    func put(_ name: String, bytes: [UInt8]) async throws -> Blob
    /// Every upload, as the server would serve it now.
    func all() async throws -> [Blob]
}

/// The store a build of the server keeps its uploads with: `fragile`, or (any other
/// name) the fixed one, its manifest at `manifest`.
public func openBlobStore(variant: String, folder: String, manifest: String) async throws -> any BlobStore {
    variant == "fragile" ? try await FragileBlobStore(folder: folder) : try await FixedBlobStore(folder: folder, manifest: manifest)
}

/// The content of the `index`th upload: seeded by its number, so a re-upload of a name
/// brings other bytes.
public func uploadBytes(_ index: Int, version: Int = 1, size: Int = 2048) -> [UInt8] {
    var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(version)
    return (0..<size).map { _ in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}

/// Where the upload `name` goes in `folder`: a plain name, or the request is refused (a
/// `chaos hunt` of the first version uploaded `name: ""`, which wrote over the folder).
func uploadPath(_ name: String, in folder: FilePath) throws -> FilePath {
    guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", name.hasSuffix(".bin") else {
        throw UploadProblem("A file needs a name ending in .bin, without slashes.")
    }
    return folder.appending(name)
}

/// Reads a whole file through `_NIOFileSystem`, as the server serves it.
func readWhole(_ path: FilePath) async throws -> [UInt8] {
    try await FileSystem.shared.withFileHandle(forReadingAt: path) { handle in
        var buffer = try await handle.readToEnd(maximumSizeAllowed: .mebibytes(64))
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }
}

/// The names in `folder` that are uploads (not the fixed store's own files), sorted.
func uploadNames(in folder: FilePath) async throws -> [String] {
    try await FileSystem.shared.withDirectoryHandle(atPath: folder) { directory in
        var names: [String] = []
        for try await entry in directory.listContents() where entry.type == .regular && entry.name.string.hasSuffix(".bin") {
            names.append(entry.name.string)
        }
        return names.sorted()
    }
}

/// What the workload uploads next: a new name (`file-001.bin`, …) or one uploaded before
/// again, each time with other bytes (its version).
public struct UploadQueue: Sendable {
    private var versions: [String: Int] = [:]

    public init() {}

    /// The name and bytes of the next upload of `name` (nil: a new name), and whether it
    /// replaces an upload the server already has.
    public mutating func next(_ name: String?) -> (name: String, bytes: [UInt8], replaces: Bool) {
        // A new name is one no upload has had: the names taken are not all the queue's own
        // (a refused name counts, the server's learnt at launch), so a count may collide.
        let name = name ?? freshName()
        let replaces = versions[name] != nil
        versions[name, default: 0] += 1
        return (name, uploadBytes(Int(name.filter(\.isNumber)) ?? 0, version: versions[name] ?? 1), replaces)
    }

    /// `file-001.bin`, `file-002.bin`, …: the first no upload has had.
    private func freshName() -> String {
        var number = versions.count + 1
        while versions[Self.name(number)] != nil { number += 1 }
        return Self.name(number)
    }

    private static func name(_ number: Int) -> String {
        "file-" + String(String(1000 + number).dropFirst()) + ".bin"
    }

    /// The uploads a server has at launch: names already taken.
    public mutating func learn(_ blobs: [Blob]) {
        for blob in blobs { versions[blob.id] = max(versions[blob.id] ?? 0, 1) }
    }
}
