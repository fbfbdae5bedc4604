@testable import Chaos
import Foundation
import Testing

/// A fault's effect is measured on files read a chunk at a time (a million-record store
/// or backup is never held whole): the chunks are the file, and a digest tells two
/// versions of a file apart as reading it whole did.
@Suite struct FileChunksTests {
    @Test func theChunksAreTheFileInOrder() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("data")
        let bytes = (0..<(2 * 4096 + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: file)
        var chunks: [[UInt8]] = []
        let total = FileChunks.read(file.path, size: 4096) { chunks.append(Array($0)) }
        #expect(total == bytes.count)
        #expect(chunks.map(\.count) == [4096, 4096, 1000])
        #expect(chunks.flatMap { $0 } == bytes)
        #expect(FileChunks.head(file.path, 100) == Array(bytes.prefix(100)))
        #expect(FileChunks.read(folder.url.appendingPathComponent("none").path) { _ in } == nil)
        #expect(FileChunks.head(folder.url.appendingPathComponent("none").path, 100) == nil)
        let empty = folder.url.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(FileChunks.read(empty.path) { _ in Issue.record("no chunk of an empty file") } == 0)
    }

    @Test func aDigestTellsAChangedByteAndAFolderItsEntries() throws {
        let folder = try TemporaryFolder()
        let backups = folder.url.appendingPathComponent("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        let file = backups.appendingPathComponent("one.sqlite")
        var bytes = [UInt8](repeating: 7, count: 3 << 20)
        try Data(bytes).write(to: file)
        let first = try #require(FileDamageEffect.digest(of: file))
        #expect(FileDamageEffect.digest(of: file) == first)
        let folderFirst = FileDamageEffect.digest(of: backups)
        bytes[(2 << 20) + 5] = 8
        try Data(bytes).write(to: file)
        #expect(FileDamageEffect.digest(of: file) != first, "a byte of the third chunk changed")
        #expect(FileDamageEffect.digest(of: backups) != folderFirst)
        try Data(bytes.dropLast()).write(to: file)
        #expect(FileDamageEffect.digest(of: file) != FileDamageEffect.digest(of: backups))
        #expect(FileDamageEffect.bytes(before: first, url: folder.url.appendingPathComponent("gone")).summary == "gone is gone")
    }
}
