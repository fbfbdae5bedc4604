import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite("Fault catalog")
struct FaultCatalogTests {
    @Test func kindsAreUniqueKebabCaseAndLookedUpByName() {
        let kinds = FaultCatalog.kinds
        // Other families follow these (network: NetworkFaultDecisionTests checks its own).
        #expect(Array(kinds.prefix(15)) == ["corrupt-file", "delete-file", "read-only", "replace-file", "file-unavailable", "throw",
                                            "delay", "reset-context", "disk-full", "io-error", "slow-io", "busy", "short-read",
                                            "device-locked", "memory-pressure"])
        #expect(Set(kinds).count == kinds.count)
        for kind in FaultCatalog.all {
            #expect(ScenarioParser.isKebabName(kind.kind))
            #expect(FaultCatalog.kind(named: kind.kind).map(ObjectIdentifier.init) == ObjectIdentifier(kind))
            #expect(!kind.summary.isEmpty)
            #expect(!kind.parameterKeys.contains("fault"))
            // A file damage's own `file:` is no clash: such kinds take no storage trigger keys.
            let triggerKeys = kind.acceptsTrigger ? kind.acceptedKeys.filter { Trigger.keys.contains($0) } : []
            #expect(Set(kind.parameterKeys).isDisjoint(with: triggerKeys), "\(kind.kind) has a parameter named like a trigger key it takes")
        }
        #expect(FaultCatalog.kind(named: "corupt-file") == nil)
    }

    /// Every kind's `example` is what `chaos list` shows and the docs copy: loaded as a
    /// step of a scenario, through the real loader, it is a step of that very kind, and
    /// every key it writes is one the kind declares (its own in `parameterKeys`, the
    /// rest the trigger's, for a kind that takes one).
    @Test func everyExampleParsesIntoAStepOfItsKindWithKeysItDeclares() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: directory.appendingPathComponent("fixtures/damaged.db"))
        for kind in FaultCatalog.all {
            let step = try ScenarioFixtures.faultStep(kind.example, baseDirectory: directory)
            #expect(step.fault.kind == kind.kind)
            #expect(ObjectIdentifier(type(of: step.fault.base)) == ObjectIdentifier(kind), "\(kind.kind) loads as \(type(of: step.fault.base))")
            #expect(step.fault.family == kind.family)
            #expect(step.fault.label.hasPrefix(kind.kind))
            let written = try Self.keysWritten(by: kind.example)
            let own = written.filter { !Trigger.keys.contains($0) }
            #expect(own.allSatisfy(kind.parameterKeys.contains), "\(kind.kind)'s example writes \(own), it declares \(kind.parameterKeys)")
            #expect(written.allSatisfy(kind.acceptedKeys.contains), "\(kind.kind)'s example writes \(written), it accepts \(kind.acceptedKeys)")
        }
    }

    /// Adding a kind is its file, its line in the catalog and its test file: a kind of
    /// the catalog without `Tests/ChaosTests/Faults/<TypeName>Tests.swift`, a suite that
    /// loads its example, fails here by name.
    @Test func everyKindHasATestFileOfItsOwn() {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("FaultCatalogTests.swift").path),
                "the test sources were found (\(folder.path))")
        var missing: [String] = []
        for kind in FaultCatalog.all {
            let name = String(describing: kind)
            let file = folder.appendingPathComponent("\(name)Tests.swift")
            guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                missing.append("\(kind.kind) (\(file.lastPathComponent))")
                continue
            }
            #expect(text.contains("@Suite") && text.contains("\(name).example"), "\(file.lastPathComponent) has a suite that loads \(name).example")
        }
        #expect(missing.isEmpty, "kinds with no test file of their own in \(folder.path): \(missing.joined(separator: ", "))")
    }

    /// The keys a fault step writes besides `fault`, as the loader composes its YAML.
    static func keysWritten(by stepYAML: String) throws -> [String] {
        let node = try #require(try ScenarioNode.compose(stepYAML, file: "example.yaml"))
        guard case let .list(items) = node.content, items.count == 1, let entries = items[0].entries else {
            Issue.record("not a list of one step: \(stepYAML)")
            return []
        }
        return entries.map(\.key).filter { $0 != "fault" }
    }

    @Test func anyFaultEquality() {
        #expect(AnyFault(DeleteFileFault(file: "store")) == AnyFault(DeleteFileFault(file: "store")))
        #expect(AnyFault(DeleteFileFault(file: "store")) != AnyFault(DeleteFileFault(file: "backup")))
        #expect(AnyFault(DeleteFileFault(file: "store")) != AnyFault(ReadOnlyFault(file: "store")))
        #expect(AnyFault(ThrowFault(point: "a/b")).as(ThrowFault.self)?.point == "a/b")
        #expect(AnyFault(ThrowFault(point: "a/b")).as(ReadOnlyFault.self) == nil)
    }
}
