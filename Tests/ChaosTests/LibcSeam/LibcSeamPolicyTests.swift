import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// The libc seam's side of the policy, without a process: which armed faults a libc
/// call reaches (only those armed in the libc seam, only files under their folder and
/// their `path:`), what it gets (an errno, a short read), and how steps name a seam.
@Suite struct LibcSeamPolicyTests {
    private func call(_ operation: StorageCall.Operation, _ path: String, amount: Int64 = 1,
                      _ body: (StorageFaultPolicy.Call) -> Void) {
        path.withCString { body(StorageFaultPolicy.Call(libc: operation, path: $0, offset: 0, amount: amount)) }
    }

    private func armed(_ fault: some StorageFault, trigger: Trigger = Trigger(), seam: StorageSeam = .libc,
                       directory: String = "/data/") throws -> any StorageArming {
        let armed = ArmedFault(id: type(of: fault).kind, fault: fault, trigger: trigger, seed: 1)
        return try StorageArmingOf(armed, fault: fault, directory: directory, seam: seam)
    }

    @Test func aLibcCallReachesLibcFaultsOnlyAndGetsAnErrno() throws {
        var policy = StorageFaultPolicy()
        policy.arm(try armed(DiskFullFault(), seam: .vfs))
        var answers: [Int32] = []
        call(.write, "/data/todos.json") { answers.append(policy.decide($0).effect.libcAnswer) }
        #expect(answers == [0], "a fault armed in the VFS never sees libc's calls")
        policy.arm(try armed(DiskFullFault(errno: .edquot)))
        call(.write, "/data/todos.json") { answers.append(policy.decide($0).effect.libcAnswer) }
        #expect(answers.last == EDQUOT)
        #expect(policy.firings.last?.seam == .libc && policy.firings.last?.errno == "EDQUOT")
        #expect(policy.firings.last?.outcome == "EDQUOT")
    }

    /// A locked device shuts every file of the app: armed in the VFS (a SQLite app), it
    /// sees libc's calls too on the files the target declares — a JSON file beside the
    /// store — and not on a file it does not (a test harness's counter). A WAL index
    /// (-shm) is no file the libc seam fails: SQLite maps it.
    @Test func aLockedDeviceArmedInTheVFSShutsLibcFilesToo() throws {
        var policy = StorageFaultPolicy()
        let fault = DeviceLockedFault()
        let locked = ArmedFault(id: "locked", fault: fault, trigger: Trigger(), seed: 1)
        policy.arm(try StorageArmingOf(locked, fault: fault, directory: "/data/", seam: .vfs,
                                       files: ["store": "app.sqlite", "settings": "settings.json"]))
        var answers: [Int32] = []
        call(.open, "/data/settings.json") { answers.append(policy.decide($0).effect.libcAnswer) }
        call(.open, "/data/app.sqlite-shm") { answers.append(policy.decide($0).effect.libcAnswer) }
        call(.open, "/data/chaos-next-id") { answers.append(policy.decide($0).effect.libcAnswer) }
        #expect(answers == [EPERM, 0, 0])
        #expect(policy.firings.last?.seam == .libc && policy.firings.last?.errno == "EPERM")
        var other = StorageFaultPolicy()
        other.arm(try armed(MemoryPressureFault(), seam: .vfs))
        call(.open, "/data/settings.json") { answers.append(other.decide($0).effect.libcAnswer) }
        #expect(answers.last == 0, "memory pressure is SQLite's, in the VFS alone")
    }

    @Test func eachKindAnswersWithItsErrno() {
        let write = StorageCall(operation: .write, file: .store, path: "/d/x", amount: 1)
        let sync = StorageCall(operation: .sync, file: .store, path: "/d/x")
        var memory = NoMemory(), full = DiskFullFault.Memory(), rng = SplitMix64(seed: 1)
        #expect(DiskFullFault().effect(of: write, memory: &full, rng: &rng).libcAnswer == ENOSPC)
        #expect(IOErrorFault(operation: "sync").effect(of: sync, memory: &memory, rng: &rng).libcAnswer == EIO)
        #expect(IOErrorFault(operation: "sync", errno: .erofs).effect(of: sync, memory: &memory, rng: &rng).libcAnswer == EROFS)
        // In the VFS, ENOSPC on a write is SQLITE_FULL, as SQLite's unix VFS reads it.
        #expect(IOErrorFault(operation: "write", errno: .enospc).effect(of: write, memory: &memory, rng: &rng).resultCode == 13)
        let read = StorageCall(operation: .read, file: .store, path: "/d/x")
        #expect(ShortReadFault().effect(of: read, memory: &memory, rng: &rng).libcAnswer == -1, "CHAOS_LIBC_SHORT")
        #expect(SlowIOFault().effect(of: read, memory: &memory, rng: &rng).libcAnswer == 0, "a delay, then through")
    }

    @Test func aPathGlobNarrowsTheFilesAFaultSees() throws {
        var policy = StorageFaultPolicy()
        policy.arm(try armed(IOErrorFault(operation: "rename"), trigger: Trigger(path: "*.json")))
        var answers: [Int32] = []
        for path in ["/data/todos.json", "/data/todos.json.tmp", "/data/sub/todos.json", "/other/todos.json"] {
            call(.rename, path) { answers.append(policy.decide($0).effect.libcAnswer) }
        }
        #expect(answers == [EIO, 0, 0, 0], "* does not cross a /, and the folder still bounds it")
    }

    @Test func libcFilesAreToldByTheirNames() {
        #expect(StorageFaultPolicy.file(named: "/d/app.sqlite-wal") == .wal)
        #expect(StorageFaultPolicy.file(named: "/d/app.sqlite-journal") == .journal)
        #expect(StorageFaultPolicy.file(named: "/d/app.sqlite-shm") == nil, "the WAL index is shared memory")
        #expect(StorageFaultPolicy.file(named: "/d/todos.json") == .store)
    }

    @Test func theSeamIsTheStepsOrTheOneThatReachesTheTarget() throws {
        #expect(StorageSeam.resolved(nil, sqliteLibraries: 1) == .vfs)
        #expect(StorageSeam.resolved(nil, sqliteLibraries: 0) == .libc)
        #expect(StorageSeam.resolved(.libc, sqliteLibraries: 2) == .libc)
        let step = try ScenarioFixtures.faultStep("- fault: io-error\n  op: write\n  seam: libc\n  path: \"*.json\"")
        #expect(step.trigger.seam == .libc && step.trigger.path == "*.json")
        #expect(step.trigger.label.contains("through libc"))
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: io-error\n  op: write\n  seam: fuse") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: io-error\n  op: write\n  path: /etc/passwd") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: disk-full\n  mechanism: tmpfs\n  errno: EDQUOT") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: throw\n  point: a/b\n  seam: libc") }
    }

    @Test func aFaultWhoseOperationsTheSeamLacksIsNamedSo() throws {
        let facts = StorageFacts(sqliteLibraries: 0)
        let lock = try ScenarioFixtures.faultStep("- fault: io-error\n  op: lock\n  if-absent: skip")
        #expect(lock.ifAbsent == .skip)
        let lockFault = try #require(lock.fault.base as? any StorageFault)
        let reason = try #require(facts.missingOperations(lockFault, step: lock))
        #expect(reason.contains("sees no lock, shm-lock"))
        let busy = try ScenarioFixtures.faultStep("- fault: busy")
        #expect(facts.whyUnreached(busy)?.contains("add if-absent: skip") == true)
        let rename = try ScenarioFixtures.faultStep("- fault: io-error\n  op: rename")
        let renameFault = try #require(rename.fault.base as? any StorageFault)
        #expect(StorageFacts(sqliteLibraries: 1).missingOperations(renameFault, step: rename) != nil, "SQLite renames nothing")
        #expect(facts.missingOperations(renameFault, step: rename) == nil)
    }
}
