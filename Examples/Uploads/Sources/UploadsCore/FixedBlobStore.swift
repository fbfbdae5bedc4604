import Foundation
import Glibc
import _NIOFileSystem

/// The store after Chaos, with what `chaos check` taught it:
///
/// - an upload is acknowledged only once its file and its folder are synced (the file's
///   name is durable only when the folder is), and its digest is recorded in a manifest
///   beside the folder, written and synced the same way (inside it, a folder lost whole
///   took its manifest along, and the loss went unsaid);
/// - every file is checked against its digest before it is served: a damaged one is set
///   aside (moved to `damaged/`, never deleted) and the user is told, never served;
/// - a file that cannot be read right now, or reads short once, is not damage: it is
///   read a second time, and when it still cannot be read it is left where it is, not
///   served, and the user told to try again (`chaos hunt` found one short read setting a
///   good upload aside for good);
/// - a manifest that cannot be read right now is no empty manifest: the server says it
///   is unavailable, sets nothing aside, and reads it again at the next request (a
///   device locked at start, since unlocked: `chaos check`'s prewarm launch);
/// - a failure to store is reported, never swallowed.
public actor FixedBlobStore: BlobStore {
    let folder: FilePath
    let manifestPath: FilePath
    /// Each upload's digests: one, or two while a re-upload is under way; nil until it
    /// could be read.
    private var digests: [String: [String]]?
    private var setAside: [String] = []
    private var unreadable: [String] = []

    public init(folder: String, manifest: String) async throws {
        self.folder = FilePath(folder)
        manifestPath = FilePath(manifest)
        try await FileSystem.shared.createDirectory(at: self.folder, withIntermediateDirectories: true)
        digests = try? await Self.readManifest(manifestPath)
    }

    /// The manifest, read now if it could not be before.
    private func manifest() async throws -> [String: [String]] {
        if let digests { return digests }
        let read = try await Self.readManifest(manifestPath)
        digests = read
        return read
    }

    /// The digests of the uploads: none when there is no manifest yet (a new server), or
    /// when it reads whole and is not JSON (its uploads are then set aside, never served
    /// unchecked). One that cannot be read, or reads short, twice is no answer: the server
    /// is unavailable until it can be (`chaos hunt` found an unreadable manifest taken for
    /// an empty one setting every good upload aside).
    static func readManifest(_ path: FilePath) async throws -> [String: [String]] {
        var info = stat()
        guard stat(path.string, &info) == 0 else {
            if errno == ENOENT { return [:] }
            throw UploadProblem("the uploads manifest cannot be read")
        }
        for _ in 0..<2 {
            guard let bytes = try? await readWhole(path), bytes.count >= Int(info.st_size) else { continue }
            return (try? JSONDecoder().decode([String: [String]].self, from: Data(bytes))) ?? [:]
        }
        throw UploadProblem("the uploads manifest cannot be read")
    }

    public var notice: String? {
        if !setAside.isEmpty {
            return "\(setAside.count) of your uploads \(setAside.count == 1 ? "was" : "were") damaged on this server, so "
                + "\(setAside.count == 1 ? "it was" : "they were") set aside. Please upload \(setAside.count == 1 ? "it" : "them") again."
        }
        return unreadable.isEmpty ? nil : "\(unreadable.count) of your uploads could not be read right now. Please try again later."
    }

    public func put(_ name: String, bytes: [UInt8]) async throws -> Blob {
        let path = try uploadPath(name, in: folder)
        let digest = Blob.digest(of: bytes)
        var manifest = try await manifest()
        defer { digests = manifest }
        do {
            // A re-upload's digest is recorded beside the one it replaces before the file
            // is: cut short (a sync that fails, a crash), either version stands and is
            // served (`chaos hunt` found a failed re-upload costing the version before it).
            if let before = manifest[name] {
                manifest[name] = before + [digest]
                try await writeDurably(manifestPath, Array(try JSONEncoder().encode(manifest)))
            }
            try await writeDurably(path, bytes)
            manifest[name] = [digest]
            try await writeDurably(manifestPath, Array(try JSONEncoder().encode(manifest)))
            return Blob(id: name, bytes: bytes)
        } catch {
            throw UploadProblem("Your file could not be stored. Please try again.")
        }
    }

    public func all() async throws -> [Blob] {
        let manifest = try await manifest()
        var blobs: [Blob] = []
        unreadable = []
        for name in try await uploadNames(in: folder) {
            switch await checkedRead(name) {
            case let .good(bytes): blobs.append(Blob(id: name, bytes: bytes))
            case .unreadable: unreadable.append(name)
            case .damaged: await setAsideDamaged(name)
            }
        }
        // An upload the manifest holds with no file left is gone: the user is told so too.
        for name in manifest.keys.sorted() where !blobs.contains(where: { $0.id == name }) && !setAside.contains(name) && !unreadable.contains(name) {
            setAside.append(name)
        }
        return blobs
    }

    private enum Read {
        case good([UInt8]), unreadable, damaged
    }

    /// The file's bytes when they match its digest, read twice before it is called
    /// damaged: a read that failed, or came back short, once is the device's doing.
    private func checkedRead(_ name: String) async -> Read {
        guard let digests = digests?[name] else { return .damaged }
        var failed = false
        for _ in 0..<2 {
            guard let bytes = try? await readWhole(folder.appending(name)) else {
                failed = true
                continue
            }
            if digests.contains(Blob.digest(of: bytes)) { return .good(bytes) }
            // Fewer bytes than the file holds is a read cut short, not a damaged file.
            var info = stat()
            if stat(folder.appending(name).string, &info) == 0, bytes.count < Int(info.st_size) { failed = true }
        }
        return failed ? .unreadable : .damaged
    }

    /// The file, then its folder, synced: only then is the upload on the disk by its name.
    private func writeDurably(_ path: FilePath, _ bytes: [UInt8]) async throws {
        try await FileSystem.shared.withFileHandle(forWritingAt: path, options: .newFile(replaceExisting: true)) { file in
            _ = try await file.write(contentsOf: bytes, toAbsoluteOffset: 0)
            try await file.synchronize()
        }
        let descriptor = open(path.removingLastComponent().string, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw UploadProblem("the uploads folder cannot be opened") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw UploadProblem("the uploads folder cannot be synced") }
    }

    private func setAsideDamaged(_ name: String) async {
        let damaged = folder.appending("damaged")
        try? await FileSystem.shared.createDirectory(at: damaged, withIntermediateDirectories: true)
        try? await FileSystem.shared.moveItem(at: folder.appending(name), to: damaged.appending("\(name).\(UUID().uuidString.prefix(8))"))
        setAside.append(name)
    }
}
