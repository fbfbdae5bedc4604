import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite("Fault catalog")
struct FaultCatalogTests {
    @Test func kindsAreUniqueKebabCaseAndLookedUpByName() {
        let kinds = FaultCatalog.kinds
        // Other families follow these (network: NetworkFaultTests checks its own).
        #expect(Array(kinds.prefix(12)) == ["corrupt-file", "delete-file", "read-only", "replace-file", "throw", "delay",
                                            "reset-context", "disk-full", "io-error", "slow-io", "busy", "short-read"])
        #expect(Set(kinds).count == kinds.count)
        for kind in FaultCatalog.all {
            #expect(ScenarioParser.isKebabName(kind.kind))
            #expect(FaultCatalog.kind(named: kind.kind).map(ObjectIdentifier.init) == ObjectIdentifier(kind))
            #expect(!kind.summary.isEmpty)
            #expect(!kind.parameterKeys.contains("fault"))
            #expect(Set(kind.parameterKeys).isDisjoint(with: Trigger.keys), "\(kind.kind) has a parameter named like a trigger key")
        }
        #expect(FaultCatalog.kind(named: "corupt-file") == nil)
    }

    @Test func everyExampleParses() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: directory.appendingPathComponent("fixtures/damaged.db"))
        for kind in FaultCatalog.all {
            let step = try ScenarioFixtures.faultStep(kind.example, baseDirectory: directory)
            #expect(step.fault.kind == kind.kind)
            #expect(step.fault.family == kind.family)
            #expect(step.fault.label.hasPrefix(kind.kind))
        }
    }

    @Test func anyFaultEquality() {
        #expect(AnyFault(DeleteFileFault(file: "store")) == AnyFault(DeleteFileFault(file: "store")))
        #expect(AnyFault(DeleteFileFault(file: "store")) != AnyFault(DeleteFileFault(file: "backup")))
        #expect(AnyFault(DeleteFileFault(file: "store")) != AnyFault(ReadOnlyFault(file: "store")))
        #expect(AnyFault(ThrowFault(point: "a/b")).as(ThrowFault.self)?.point == "a/b")
        #expect(AnyFault(ThrowFault(point: "a/b")).as(ReadOnlyFault.self) == nil)
    }
}
