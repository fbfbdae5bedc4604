import Foundation
import _NIOFileSystem

/// The store as first shipped — deliberately fragile, so Chaos has something to find:
/// it syncs nothing (a power cut takes uploads the user was told were saved) and serves
/// whatever bytes it finds (damage reaches the user as if it were their file).
/// (Example code of what NOT to do; it lives only in this example.)
public struct FragileBlobStore: BlobStore {
    let folder: FilePath

    public init(folder: String) async throws {
        self.folder = FilePath(folder)
        try await FileSystem.shared.createDirectory(at: self.folder, withIntermediateDirectories: true)
    }

    public var notice: String? { nil }

    public func put(_ name: String, bytes: [UInt8]) async throws -> Blob {
        try await FileSystem.shared.withFileHandle(forWritingAt: try uploadPath(name, in: folder), options: .newFile(replaceExisting: true)) { file in
            _ = try await file.write(contentsOf: bytes, toAbsoluteOffset: 0)
        }
        return Blob(id: name, bytes: bytes)
    }

    public func all() async throws -> [Blob] {
        var blobs: [Blob] = []
        for name in try await uploadNames(in: folder) { blobs.append(Blob(id: name, bytes: try await readWhole(folder.appending(name)))) }
        return blobs
    }
}
