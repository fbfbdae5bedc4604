import Testing
@testable import Chaos
@testable import ChaosTarget

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
        func message(_ body: String) -> String? {
            do {
                _ = try ScenarioFixtures.faultStep("- fault: corrupt-file\n" + body)
                return nil
            } catch { return error.message }
        }
        #expect(message("  file: store")?.contains("needs 'how:'") == true)
        #expect(message("  how: shred")?.contains("unknown 'how' value 'shred'") == true)
        #expect(message("  how: truncate\n  bytes: 5")?.contains("'bytes' of fault 'corrupt-file' only applies to how: flip-bytes") == true)
        #expect(message("  how: flip-bytes\n  bytes: 100000")?.contains("must be from 1 to 4096") == true)
        #expect(message("  how: flip-bytes\n  file: ../etc/passwd")?.contains("logical file name") == true)
        #expect(message("  how: flip-bytes\n  file: [a]")?.contains("expected a string, found a list") == true)
        #expect(message("  how: truncate\n  after: 1")?.contains("acts once") == true)
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
