import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// device-locked shuts the app's protected files as a locked phone does: opens, reads,
/// writes, syncs and truncates fail (EPERM in libc, SQLite's own codes in the VFS),
/// renames and deletes go through, and the files the target declares unprotected are
/// spared.
@Suite("Fault: device-locked")
struct DeviceLockedFaultTests: StorageKindChecks {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(DeviceLockedFault.example)
        #expect(step.fault == AnyFault(DeviceLockedFault()))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault device-locked")
        let one = try ScenarioFixtures.faultStep("- fault: device-locked\n  file: store")
        #expect(one.trigger.file == "store", "file: narrows it to one declared file")
    }

    @Test func failsEveryAccessToAFileWithItsOwnCodeAndEPERM() {
        let fault = DeviceLockedFault()
        let expected: [StorageCall.Operation: Int32] = [.open: 14, .read: 266, .write: 778, .sync: 1034, .truncate: 1546]
        for (operation, code) in expected {
            #expect(hits(fault, Self.call(operation)), "\(operation)")
            let effect = effect(fault, Self.call(operation))
            #expect(effect == .fail(code, errno: .eperm), "\(operation)")
            #expect(effect.libcAnswer == EPERM, "\(operation): a protected file answers EPERM")
        }
        #expect(fault.operations == Set(expected.keys))
    }

    /// A locked device changes no folder's listing: a file is renamed or deleted as ever
    /// (which is how an app that takes a locked store for a damaged one sets it aside).
    @Test func renamesDeletesAndLocksGoThrough() {
        let fault = DeviceLockedFault()
        for operation in [StorageCall.Operation.rename, .delete, .lock, .shmLock] {
            #expect(!hits(fault, Self.call(operation)), "\(operation)")
        }
    }

    @Test func takesNoKeysOfItsOwn() {
        ScenarioFixtures.expectRefused("- fault: device-locked\n  class: complete", at: .key("class"),
                                       saying: "unknown key 'class' in fault 'device-locked'")
    }

    /// The files a target declares unprotected (a widget's cache) are spared, theirs and
    /// what their code writes beside them; every other file under the data folder fails.
    @Test func theFilesATargetDeclaresUnprotectedAreSpared() throws {
        let files = ["store": "notes.sqlite", "cache": "widget/cache.json"]
        let armed = ArmedFault(id: "locked", fault: DeviceLockedFault(), trigger: Trigger(), seed: 1)
        var locked = try StorageArmingOf(armed, fault: DeviceLockedFault(), directory: "/data/", seam: .libc, files: files,
                                         unprotected: ["cache"])
        func decided(_ path: String) -> StorageEffect?? {
            locked.decide(StorageCall(operation: .open, file: .any, path: path)).map(\.effect)
        }
        #expect(decided("/data/widget/cache.json") == nil, "unprotected: not a hit")
        #expect(decided("/data/widget/cache.json.tmp") == nil, "what its code writes beside it")
        #expect(decided("/data/notes.sqlite") == .some(.fail(14, errno: .eperm)))
        #expect(decided("/data/settings.plist") == .some(.fail(14, errno: .eperm)), "an undeclared file is protected")

        // Another kind does not honour data protection: it fails the cache all the same.
        var other = try StorageArmingOf(armed, fault: IOErrorFault(operation: "open"), directory: "/data/", seam: .libc,
                                        files: files, unprotected: ["cache"])
        #expect(other.decide(StorageCall(operation: .open, file: .any, path: "/data/widget/cache.json"))?.effect != nil)
    }

    /// A target that declares an unprotected file it does not have is told which.
    @Test func anUnprotectedNameThatIsNoFileIsRefused() {
        let declaration = TargetDeclaration(files: ["store": "a.sqlite"], actions: [], probes: [], unprotectedFiles: ["cahce"])
        #expect(declaration.nameProblem?.contains("'cahce' unprotected") == true, "\(declaration.nameProblem ?? "nil")")
        #expect(declaration.nameProblem?.contains("its files are store") == true)
        #expect(TargetDeclaration(files: ["store": "a.sqlite"], actions: [], probes: [], unprotectedFiles: ["store"]).nameProblem == nil)
    }
}
