import Testing
@testable import Chaos
@testable import ChaosTarget

/// corrupt-file plans its damage as a value, seeded, for a file of a given size: each
/// method does what its doc comment says, and no plan reaches past the end of the file.
@Suite("Fault: corrupt-file")
struct CorruptFileFaultTests {
    let page = FileDamagePlan.pageSize

    func plan(_ how: CorruptFileFault.Method, size: Int, seed: UInt64 = 1, flips: Int = 64) -> FileDamagePlan {
        var rng = SplitMix64(seed: seed)
        return CorruptFileFault(how: how, flipCount: flips).plan(fileSize: size, rng: &rng)
    }

    func edits(_ plan: FileDamagePlan) -> [ByteEdit] {
        if case let .edits(edits) = plan { return edits }
        Issue.record("not an edit plan: \(plan)")
        return []
    }

    @Test func parsesItsParameters() throws {
        let step = try ScenarioFixtures.faultStep(CorruptFileFault.example)
        #expect(step.fault == AnyFault(CorruptFileFault(file: "store", how: .garbageHeader)))
        #expect(step.fault.label == "corrupt-file store (garbage-header)")
        let flips = try ScenarioFixtures.faultStep("- fault: corrupt-file\n  file: wal\n  how: flip-bytes\n  bytes: 16")
        #expect(flips.fault == AnyFault(CorruptFileFault(file: "wal", how: .flipBytes, flipCount: 16)))
        #expect(flips.fault.label == "corrupt-file wal (flip-bytes, 16 bytes)")
        let defaulted = try ScenarioFixtures.faultStep("- fault: corrupt-file\n  how: truncate")
        #expect(defaulted.fault.as(CorruptFileFault.self)?.file == "store")
    }

    @Test func rejectsBadParameters() {
        func refused(_ body: String, at spot: StepSpot, saying text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            ScenarioFixtures.expectRefused("- fault: corrupt-file\n" + body, at: spot, saying: text, sourceLocation: sourceLocation)
        }
        refused("  file: store", at: .step, saying: "needs 'how:'")
        refused("  how: shred", at: .value("how"), saying: "unknown 'how' value 'shred'")
        refused("  how: truncate\n  bytes: 5", at: .value("bytes"), saying: "'bytes' of fault 'corrupt-file' only applies to how: flip-bytes")
        refused("  how: flip-bytes\n  bytes: 100000", at: .value("bytes"), saying: "must be from 1 to 4096")
        refused("  how: flip-bytes\n  file: ../etc/passwd", at: .value("file"), saying: "logical file name")
        refused("  how: flip-bytes\n  file: [a]", at: .value("file"), saying: "expected a string, found a list")
        refused("  how: truncate\n  after: 1", at: .key("after"), saying: "acts once")
        refused("  how: truncate\n  file: wal\n  scope: database", at: .value("scope"), saying: "it needs 'file: store', found 'wal'")
        refused("  how: truncate\n  scope: pages", at: .value("scope"), saying: "unknown 'scope' value 'pages'")
    }

    /// `scope: database` folds the WAL into the store before the plan is made, so the
    /// damage reaches the pages SQLite reads; `scope: file` (the default) takes the file as it is.
    @Test func scopeDatabaseCheckpointsTheWALFirst() throws {
        let step = try ScenarioFixtures.faultStep("- fault: corrupt-file\n  how: flip-bytes\n  scope: database")
        let fault = try #require(step.fault.as(CorruptFileFault.self))
        #expect(fault == CorruptFileFault(how: .flipBytes, scope: .database))
        #expect(fault.preparation == .checkpointWAL)
        #expect(fault.label == "corrupt-file store (flip-bytes, the database)")
        #expect(CorruptFileFault(how: .flipBytes).preparation == FileDamagePreparation.none)
        #expect(CorruptFileFault.needsTheFile && !CorruptFileFault.needsPermissionBits, "damage needs a file to damage")
    }

    /// A plain file (a target without SQLite) may lose any page, its first too; one of
    /// a page or less is zeroed whole, its length kept. Other methods plan as for SQLite.
    @Test func zeroPagesOfAPlainFileMayZeroAnyPageAndKeepsTheLength() {
        func plain(_ how: CorruptFileFault.Method, size: Int, seed: UInt64) -> FileDamagePlan {
            var rng = SplitMix64(seed: seed)
            return CorruptFileFault(how: how).plan(fileSize: size, format: .plain, rng: &rng)
        }
        #expect(plain(.zeroPages, size: 300, seed: 1) == .edits([ByteEdit(offset: 0, bytes: [UInt8](repeating: 0, count: 300))]))
        var zeroedFirst = false
        for seed in UInt64(1)...50 {
            let size = 5 * page + 10
            let zeroed = edits(plain(.zeroPages, size: size, seed: seed))
            #expect((1...3).contains(zeroed.count), "seed \(seed)")
            #expect(zeroed.allSatisfy { $0.offset % page == 0 && $0.bytes == [UInt8](repeating: 0, count: min(page, size - $0.offset)) },
                    "whole pages, the last, partial one to the end of the file and not past it")
            zeroedFirst = zeroedFirst || zeroed.contains { $0.offset == 0 }
        }
        #expect(zeroedFirst, "the first page is a page like any other in a plain file")
        for how in CorruptFileFault.Method.allCases where how != .zeroPages {
            #expect(plain(how, size: 10 * page, seed: 9) == plan(how, size: 10 * page, seed: 9), "\(how)")
        }
    }

    @Test func plansAreDeterministicPerSeed() {
        for how in CorruptFileFault.Method.allCases {
            #expect(plan(how, size: 40 * page, seed: 7) == plan(how, size: 40 * page, seed: 7))
        }
        #expect(plan(.flipBytes, size: 40 * page, seed: 7) != plan(.flipBytes, size: 40 * page, seed: 8))
        #expect(plan(.garbageHeader, size: 40 * page, seed: 7) != plan(.garbageHeader, size: 40 * page, seed: 8))
    }

    @Test func plansStayWithinTheFile() {
        var seeds = SplitMix64(seed: 1234)
        for size in [0, 1, 50, 99, 100, 101, 4095, 4096, 4097, 8191, 8192, 12_288, 40 * 4096 + 17, 1 << 24] {
            for how in CorruptFileFault.Method.allCases {
                let seed = seeds.next()
                switch plan(how, size: size, seed: seed) {
                case let .edits(edits):
                    for edit in edits {
                        #expect(edit.offset >= 0 && edit.range.upperBound <= size, "\(how) size \(size): \(edit)")
                    }
                case let .truncate(length):
                    #expect(length >= 0 && length <= size)
                    // A cut shortens the file, except header-only on a file no longer than the header.
                    if size > 0, !(how == .headerOnly && size <= CorruptFileFault.headerSize) {
                        #expect(length < size, "\(how) size \(size) → \(length)")
                    }
                default:
                    Issue.record("unexpected plan for \(how)")
                }
            }
        }
    }

    @Test func garbageHeaderOverwritesTheFirst100Bytes() {
        let header = edits(plan(.garbageHeader, size: 10 * page))
        #expect(header.count == 1)
        #expect(header.first?.offset == 0)
        #expect(header.first?.bytes.count == 100)
        #expect(header.first?.operation == .overwrite)
        #expect(edits(plan(.garbageHeader, size: 30)).first?.bytes.count == 30)
        #expect(edits(plan(.garbageHeader, size: 0)).isEmpty)
    }

    @Test func flipBytesXorsDistinctBytesPastTheFirstPage() {
        let flips = edits(plan(.flipBytes, size: 10 * page, flips: 64))
        #expect(flips.count == 64)
        #expect(Set(flips.map(\.offset)).count == 64)
        #expect(flips.allSatisfy { $0.offset >= page && $0.operation == .xor && $0.bytes.count == 1 && $0.bytes != [0] })
        #expect(flips.map(\.offset) == flips.map(\.offset).sorted())
        let small = edits(plan(.flipBytes, size: 300, flips: 64))
        #expect(small.count == 64 && small.allSatisfy { $0.offset >= 100 })
        let tiny = edits(plan(.flipBytes, size: 120, flips: 64))
        #expect(tiny.count == 20)
    }

    @Test func zeroPagesZeroesOneToThreeWholePagesNeverTheFirst() {
        for seed in UInt64(1)...50 {
            let zeroed = edits(plan(.zeroPages, size: 20 * page + 100, seed: seed))
            #expect((1...3).contains(zeroed.count))
            for edit in zeroed {
                #expect(edit.offset % page == 0 && edit.offset >= page && edit.offset < 20 * page)
                #expect(edit.bytes == [UInt8](repeating: 0, count: page))
            }
        }
        #expect(edits(plan(.zeroPages, size: page)).isEmpty)
        #expect(edits(plan(.zeroPages, size: 2 * page)) == [ByteEdit(offset: page, bytes: [UInt8](repeating: 0, count: page))])
    }

    @Test func truncateCutsToAPageMultipleBetween10And60Percent() throws {
        let size = 100 * page
        for seed in UInt64(1)...50 {
            guard case let .truncate(length) = plan(.truncate, size: size, seed: seed) else {
                Issue.record("not a truncation")
                continue
            }
            #expect(length % page == 0)
            #expect(length >= size / 10 - page && length <= size * 6 / 10)
        }
        #expect(plan(.truncate, size: 2 * page, seed: 3) == .truncate(to: page))
        let small = try #require(plan(.truncate, size: 1000).truncatedLength, "a small file is cut, not left alone")
        #expect(small >= 100 && small <= 600)
    }

    @Test func descriptions() {
        #expect(FileDamagePlan.edits([ByteEdit(offset: 0, bytes: [1, 2])]).description == "overwrite 2 bytes at offset 0")
        #expect(FileDamagePlan.edits([ByteEdit(offset: 4096, bytes: [0, 0])]).description == "zero 2 bytes at offset 4096")
        #expect(FileDamagePlan.edits([]).description.hasPrefix("no change"))
        #expect(FileDamagePlan.truncate(to: 8192).description == "truncate to 8192 bytes")
        let flips = (0..<10).map { ByteEdit(offset: 5000 + $0, bytes: [1], operation: .xor) }
        #expect(FileDamagePlan.edits(flips).description == "flip bits in 10 bytes at 10 offsets from 5000 to 5009")
    }
}
