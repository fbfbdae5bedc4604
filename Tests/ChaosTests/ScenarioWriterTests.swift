import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// One step model: every step the parser reads keeps its written form, and the scenario
/// format's own writer writes it back to a file that reads as the same steps — for every
/// scenario the project ships, not only those a hunt writes.
@Suite struct ScenarioWriterTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    /// Every scenario file shipped: the reference app's, the storage catalog's, the examples'.
    static func shippedScenarios() throws -> [Scenario] {
        var scenarios = try ScenarioCatalog.reference.scenarios()
        scenarios += try ScenarioLoader.storageCatalog()
        let folders = try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
        for folder in folders.sorted(by: { $0.path < $1.path }) {
            let scenarioFolder = folder.appendingPathComponent("scenarios")
            guard FileManager.default.fileExists(atPath: scenarioFolder.path) else { continue }
            scenarios += try ScenarioCatalog(folder: scenarioFolder).scenarios()
        }
        return scenarios
    }

    @Test func everyShippedStepIsWrittenBackToTheSameStep() throws {
        let scenarios = try Self.shippedScenarios()
        #expect(scenarios.count > 100, "\(scenarios.count) scenarios")
        var kinds: Set<StepKeyword> = []
        for scenario in scenarios {
            let written = scenario.steps.compactMap(\.written)
            #expect(written.count == scenario.steps.count, "\(scenario.name): a parsed step without its written form")
            let text = ScenarioWriter.text(name: scenario.name, summary: scenario.summary, system: scenario.system, seed: scenario.seed,
                                           timeout: ScenarioDuration.format(scenario.timeout), steps: written, expectations: ["no-trap"])
            let base = URL(fileURLWithPath: scenario.location.file).deletingLastPathComponent()
            let again = try ScenarioLoader.load(yaml: text, file: scenario.location.file, baseDirectory: base)
            #expect(again.steps.map(\.action) == scenario.steps.map(\.action), "\(scenario.name):\n\(text)")
            #expect(again.steps.map(\.written) == scenario.steps.map(\.written), "\(scenario.name)")
            for step in scenario.steps { kinds.insert(step.action.keyword) }
        }
        #expect(kinds.isSuperset(of: [.launch, .stop, .kill, .do, .checkpoint, .fault, .clear]), "\(kinds)")
    }

    @Test func aStepKeepsItsKeysInTheOrderWrittenAndTheHuntsShorthands() throws {
        let scenario = try ScenarioLoader.load(yaml: """
            name: written
            summary: written
            system: favorites
            steps:
              - launch
              - do: favorites.add
                repeat: 3
                with: { count: 2 }
                expect-error: false
              - fault: io-error
                times: 2
                op: write
              - power-loss
              - launch
              - power-loss: torn
                after-writes: 4
              - launch
              - wait: 250ms
              - checkpoint: here
            expect:
              - no-trap
            """, file: "written.yaml", baseDirectory: nil)
        #expect(scenario.steps.map(\.written) == [
            .launch,
            .action("favorites.add", [HuntKey("count", .int(2))], [HuntKey("repeat", .int(3)), HuntKey("expect-error", .bool(false))]),
            .fault("io-error", [HuntKey("times", .int(2)), HuntKey("op", .string("write"))]),
            .powerLoss(nil, []), .launch, .powerLoss("torn", HuntKey("after-writes", .int(4))), .launch, .wait("250ms"), .checkpoint("here"),
        ])
        #expect(ScenarioWriter.lines(of: scenario.steps[1].written!) == [
            "  - do: favorites.add", "    with: { count: 2 }", "    repeat: 3", "    expect-error: false",
        ])
        #expect(scenario.steps.compactMap(\.written).map(\.isHunted) == [true, false, true, true, true, true, true, false, false])
    }
}
