import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// disk-full decides as a full disk answers: writes and growth fail with SQLITE_FULL
/// (ENOSPC or EDQUOT in the libc seam), after a budget of bytes when asked, and a disk
/// that filled up stays full. Without SQLite or a seam: the kind's decisions as values.
@Suite("Fault: disk-full")
struct DiskFullFaultTests: StorageKindChecks {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(DiskFullFault.example)
        #expect(step.fault == AnyFault(DiskFullFault()))
        #expect(step.trigger == Trigger(on: .wal))
        #expect(step.fault.family == .storage)
        #expect(step.label == "fault disk-full on wal")
    }

    @Test func readsItsBudgetItsErrnoAndARealFullDisk() throws {
        let budget = try ScenarioFixtures.faultStep("- fault: disk-full\n  after-bytes: 65536\n  errno: EDQUOT")
        #expect(budget.fault == AnyFault(DiskFullFault(afterBytes: 65536, errno: .edquot)))
        #expect(budget.fault.label == "disk-full after 65536 bytes (EDQUOT)")
        #expect(DiskFullFault().seam == .inProcess)
        let real = try #require(try ScenarioFixtures.faultStep("- fault: disk-full\n  mechanism: tmpfs").fault.as(DiskFullFault.self))
        #expect(real == DiskFullFault(mechanism: .tmpfs))
        #expect(real.seam == .tmpfs, "a real full disk: the kernel answers, not a seam in the app")
        #expect(real.label == "disk-full (real, tmpfs)")
    }

    @Test func countsWritesAndGrowthOnly() {
        let full = DiskFullFault()
        #expect(full.operations == [.write, .truncate])
        #expect(hits(full, Self.call(.write, .wal)))
        #expect(hits(full, Self.call(.truncate, amount: 1)), "a truncate that grows the file")
        #expect(!hits(full, Self.call(.truncate, amount: 0)), "shrinking frees space")
        #expect(!hits(full, Self.call(.read)))
        #expect(!hits(full, on: .wal, Self.call(.write, .store)), "on: wal leaves the store alone")
        #expect(effect(full, Self.call(.write)) == .fail(13))
    }

    /// SQLITE_FULL in the VFS; in the libc seam ENOSPC, or the quota's EDQUOT when asked.
    @Test func failsWithSQLiteFullAndTheErrnoOfAFullDisk() {
        #expect(effect(DiskFullFault(), Self.call(.truncate, amount: 1)) == .fail(StorageEffect.Code.full))
        #expect(effect(DiskFullFault(), Self.call(.write)).libcAnswer == ENOSPC)
        let quota = effect(DiskFullFault(errno: .edquot), Self.call(.write))
        #expect(quota == .fail(13, errno: .edquot))
        #expect(quota.libcAnswer == EDQUOT)
    }

    @Test func remembersTheBytesWrittenAndStaysFull() {
        let full = DiskFullFault(afterBytes: 100)
        var memory = full.initialMemory
        #expect(!full.isHit(Self.call(.write, amount: 60), on: .any, memory: &memory))
        #expect(!full.isHit(Self.call(.write, amount: 40), on: .any, memory: &memory), "exactly the budget still fits")
        #expect(full.isHit(Self.call(.write, amount: 1), on: .any, memory: &memory))
        var rng = SplitMix64(seed: 0)
        _ = full.effect(of: Self.call(.write, amount: 1), memory: &memory, rng: &rng)
        #expect(memory.full)
        #expect(full.isHit(Self.call(.write, amount: 0), on: .any, memory: &memory), "full stays full")
    }

    /// A write the trigger let through (`after: 2`) was written: it uses up the budget.
    @Test func aWriteLetThroughCountsAgainstTheBudget() {
        let full = DiskFullFault(afterBytes: 100)
        var memory = full.initialMemory
        #expect(full.isHit(Self.call(.write, amount: 150), on: .any, memory: &memory))
        full.passed(Self.call(.write, amount: 150), memory: &memory)
        #expect(memory.bytesWritten == 150)
        #expect(!memory.full, "not full until a firing says so")
        #expect(full.isHit(Self.call(.write, amount: 1), on: .any, memory: &memory), "past the budget, any write is a hit")
    }

    /// What the disk holds goes to the worker and back in every reply, as JSON, so a
    /// relaunched app finds the disk as full as it left it.
    @Test func itsMemoryCrossesARelaunch() throws {
        let memory = DiskFullFault.Memory(bytesWritten: 4096, full: true)
        let decoded = try JSONDecoder().decode(DiskFullFault.Memory.self, from: JSONEncoder().encode(memory))
        #expect(decoded == memory)
        #expect(DiskFullFault().initialMemory == DiskFullFault.Memory(bytesWritten: 0, full: false))
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: disk-full\n  errno: EIO", at: .value("errno"), saying: "unknown 'errno' value 'EIO'")
        ScenarioFixtures.expectRefused("- fault: disk-full\n  mechanism: nfs", at: .value("mechanism"), saying: "unknown 'mechanism' value 'nfs'")
        ScenarioFixtures.expectRefused("- fault: disk-full\n  after-bytes: -1", at: .value("after-bytes"), saying: "must be from 0")
        ScenarioFixtures.expectRefused("- fault: disk-full\n  mechanism: tmpfs\n  after-bytes: 10", at: .value("after-bytes"),
                                       saying: "'after-bytes' is for the VFS mechanism")
        ScenarioFixtures.expectRefused("- fault: disk-full\n  mechanism: tmpfs\n  errno: ENOSPC", at: .value("errno"),
                                       saying: "'errno' is for an injected full disk")
        ScenarioFixtures.expectRefused("- fault: disk-full\n  mechanism: tmpfs\n  seam: libc", at: .value("seam"),
                                       saying: "'seam' is for an injected full disk")
    }

    /// `reported-free`: the disk says it has that much room while writes fail.
    @Test func readsTheFreeSpaceItReports() throws {
        let step = try ScenarioFixtures.faultStep("- fault: disk-full\n  reported-free: 200MB")
        #expect(step.fault == AnyFault(DiskFullFault(reportedFree: 200_000_000)))
        #expect(step.label == "fault disk-full, 200MB reported free")
        #expect(try ScenarioFixtures.faultStep("- fault: disk-full\n  reported-free: 1 GB").fault == AnyFault(DiskFullFault(reportedFree: 1_000_000_000)))
        #expect(DiskFullFault.format(1_500_000) == "1500KB" && DiskFullFault.format(7) == "7B")
        ScenarioFixtures.expectRefused("- fault: disk-full\n  reported-free: lots", at: .value("reported-free"),
                                       saying: "'reported-free' is a size like 200MB")
        ScenarioFixtures.expectRefused("- fault: disk-full\n  reported-free: -5MB", at: .value("reported-free"),
                                       saying: "'reported-free' is a size like 200MB")
        ScenarioFixtures.expectRefused("- fault: disk-full\n  mechanism: tmpfs\n  reported-free: 1GB", at: .value("reported-free"),
                                       saying: "'reported-free' is for an injected full disk")
    }
}
