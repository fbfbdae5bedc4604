import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// docs/SCENARIOS.md shows what the loader takes: every fault kind of the catalog has its
/// row in the table of faults, and every YAML block (a list of steps) loads as the steps
/// of a scenario, its kinds and keys as written.
@Suite struct ScenarioDocsTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/SCENARIOS.md")

    @Test func everyKindHasItsRow() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let missing = FaultCatalog.kinds.filter { kind in
            kind != PowerLossFault.kind && !text.contains("\n| `\(kind)` |")
        }
        #expect(missing.isEmpty, "no row in docs/SCENARIOS.md's table of faults: \(missing)")
        #expect(text.contains("### Power loss"), "power-loss has a section of its own")
    }

    @Test func everyYAMLBlockLoadsAsSteps() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let blocks = text.components(separatedBy: "```yaml\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.count >= 5)
        var kinds: Set<String> = []
        for block in blocks {
            let steps = block.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            // A block that starts with the app closed is preceded by a launch.
            let yaml = ScenarioFixtures.scenario(steps: "  - launch\n" + steps).replacingOccurrences(of: "workload.", with: "favorites.")
                .replacingOccurrences(of: "favorites.read", with: "favorites.list").replacingOccurrences(of: "favorites.write", with: "favorites.add")
            do {
                let scenario = try ScenarioLoader.load(yaml: yaml, file: "SCENARIOS.md", baseDirectory: nil)
                for step in scenario.steps {
                    if case let .fault(fault) = step.action { kinds.insert(fault.fault.kind) }
                }
            } catch {
                Issue.record("docs/SCENARIOS.md block does not load: \(error)\n\(block)")
            }
        }
        #expect(kinds.contains(DeviceLockedFault.kind), "\(kinds.sorted())")
    }
}
