import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// The file-damage seam on real temporary files.
@Suite("File damage seam")
struct FileDamageTests {
    let page = FileDamagePlan.pageSize

    /// A temporary folder with `store.sqlite` of `size` bytes of a repeating pattern.
    func makeStore(size: Int) throws -> (directory: URL, store: URL, content: [UInt8]) {
        let directory = try ScenarioFixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("store.sqlite")
        let content = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) }
        try Data(content).write(to: store)
        return (directory, store, content)
    }

    func read(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    @Test func garbageHeaderChangesOnlyTheFirst100Bytes() throws {
        let (directory, store, content) = try makeStore(size: 10 * page)
        defer { try? FileManager.default.removeItem(at: directory) }
        var rng = SplitMix64(seed: 1)
        let plan = CorruptFileFault(how: .garbageHeader).plan(fileSize: try FileDamage.size(of: store), rng: &rng)
        let done = try FileDamage.apply(plan, to: store)
        let after = try read(store)
        #expect(after.count == content.count)
        #expect(after.prefix(100) != content.prefix(100))
        #expect(after.dropFirst(100) == content.dropFirst(100))
        let edits = try #require(plan.edits, "a plan of byte edits")
        #expect(Array(after.prefix(100)) == edits.first?.bytes)
        #expect(done == "overwrote 100 bytes at offset 0 of \(store.path)")
    }

    @Test func flipBytesChangesExactlyTheChosenBytes() throws {
        let (directory, store, content) = try makeStore(size: 8 * page)
        defer { try? FileManager.default.removeItem(at: directory) }
        var rng = SplitMix64(seed: 9)
        let plan = CorruptFileFault(how: .flipBytes, flipCount: 32).plan(fileSize: content.count, rng: &rng)
        try FileDamage.apply(plan, to: store)
        let after = try read(store)
        let changed = Set(zip(after, content).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset))
        let edits = try #require(plan.edits, "a plan of byte edits")
        #expect(changed == Set(edits.map(\.offset)))
        #expect(changed.count == 32)
        for edit in edits {
            #expect(after[edit.offset] == content[edit.offset] ^ (edit.bytes.first ?? 0))
        }
        // Applying the same XOR plan again restores the file.
        try FileDamage.apply(plan, to: store)
        #expect(try read(store) == content)
    }

    @Test func zeroPagesZeroesWholePages() throws {
        let (directory, store, content) = try makeStore(size: 12 * page)
        defer { try? FileManager.default.removeItem(at: directory) }
        var rng = SplitMix64(seed: 4)
        let plan = CorruptFileFault(how: .zeroPages).plan(fileSize: content.count, rng: &rng)
        try FileDamage.apply(plan, to: store)
        let after = try read(store)
        #expect(after.count == content.count)
        let edits = try #require(plan.edits, "a plan of byte edits")
        let zeroed = Set(edits.map { $0.offset / page })
        for index in 0..<12 {
            let range = (index * page)..<((index + 1) * page)
            if zeroed.contains(index) {
                #expect(after[range].allSatisfy { $0 == 0 })
            } else {
                #expect(after[range] == content[range])
            }
        }
    }

    @Test func truncateShortensTheFile() throws {
        let (directory, store, content) = try makeStore(size: 50 * page)
        defer { try? FileManager.default.removeItem(at: directory) }
        var rng = SplitMix64(seed: 2)
        let plan = CorruptFileFault(how: .truncate).plan(fileSize: content.count, rng: &rng)
        guard case let .truncate(length) = plan else {
            Issue.record("not a truncation")
            return
        }
        let done = try FileDamage.apply(plan, to: store)
        #expect(try FileDamage.size(of: store) == length)
        #expect(try read(store) == Array(content.prefix(length)))
        #expect(done == "truncated \(store.path) from \(content.count) to \(length) bytes")
    }

    @Test func deleteRemovesExactlyTheNamedFile() throws {
        let (directory, store, _) = try makeStore(size: page)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wal = URL(fileURLWithPath: store.path + "-wal")
        try Data([1, 2, 3]).write(to: wal)
        try FileDamage.apply(.delete, to: store)
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(FileManager.default.fileExists(atPath: wal.path))
    }

    @Test func makeReadOnlyClearsEveryWriteBit() throws {
        let (directory, store, _) = try makeStore(size: page)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = chmod(store.path, 0o664)
        let done = try FileDamage.apply(.makeReadOnly, to: store)
        let mode = (try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o444)
        #expect(done.contains("mode 664 → 444"))
    }

    @Test func replaceCopiesTheReplacementAndDropsTheOldWALAndSHM() throws {
        let (directory, store, _) = try makeStore(size: 4 * page)
        defer { try? FileManager.default.removeItem(at: directory) }
        let replacement = directory.appendingPathComponent("user-damaged.db")
        try Data("SQLite format 3\0 but not really".utf8).write(to: replacement)
        _ = chmod(replacement.path, 0o444)
        let wal = URL(fileURLWithPath: store.path + "-wal")
        let shm = URL(fileURLWithPath: store.path + "-shm")
        try Data([1]).write(to: wal)
        try Data([2]).write(to: shm)
        let done = try FileDamage.apply(.replace(with: replacement), to: store)
        #expect(try read(store) == Array("SQLite format 3\0 but not really".utf8))
        #expect(!FileManager.default.fileExists(atPath: wal.path))
        #expect(!FileManager.default.fileExists(atPath: shm.path))
        #expect(FileManager.default.fileExists(atPath: replacement.path))
        let mode = (try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o644)
        #expect(done.contains("removed store.sqlite-wal, store.sqlite-shm"))
    }

    @Test func aMissingFileIsAnErrorNamingThePath() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("nope.sqlite")
        for plan in [FileDamagePlan.edits([ByteEdit(offset: 0, bytes: [1])]), .truncate(to: 0), .delete, .makeReadOnly] {
            do {
                try FileDamage.apply(plan, to: missing)
                Issue.record("expected an error for \(plan)")
            } catch {
                #expect(error.path == missing.path)
                #expect(error.description == "cannot damage \(missing.path): the file does not exist")
            }
        }
        #expect(throws: FileDamageError.self) { try FileDamage.apply(.replace(with: missing), to: directory.appendingPathComponent("x")) }
        #expect(throws: FileDamageError.self) { try FileDamage.size(of: missing) }
    }

    @Test func aPlanForAnotherSizeIsRefused() throws {
        let (directory, store, content) = try makeStore(size: 100)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: FileDamageError.self) {
            try FileDamage.apply(.edits([ByteEdit(offset: 90, bytes: [UInt8](repeating: 0, count: 20))]), to: store)
        }
        #expect(try read(store) == content)
    }

    @Test func anEmptyPlanLeavesTheFileAlone() throws {
        let (directory, store, content) = try makeStore(size: page)
        defer { try? FileManager.default.removeItem(at: directory) }
        var rng = SplitMix64(seed: 1)
        let plan = CorruptFileFault(how: .zeroPages).plan(fileSize: page, rng: &rng)
        let done = try FileDamage.apply(plan, to: store)
        #expect(done.hasPrefix("left \(store.path) unchanged"))
        #expect(try read(store) == content)
    }
}
