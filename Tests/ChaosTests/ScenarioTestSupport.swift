import Foundation
import ReferenceScenarios
@testable import Chaos
@testable import ChaosTarget

extension ScenarioCatalog {
    /// The reference app's scenarios, as its target declares them.
    static var reference: ScenarioCatalog {
        ScenarioCatalog(folder: ReferenceScenarios.catalogDirectory ?? URL(fileURLWithPath: "/no-reference-catalog"))
    }
}

/// Shared by the scenario, fault and file-damage tests.
enum ScenarioFixtures {
    /// The example of DESIGN.md section 2, verbatim.
    static let designExample = """
        name: corrupted-db
        summary: The favourites store is overwritten with garbage while the app is closed.
        system: favorites            # which seed system it exercises
        seed: 1                      # default seed; --seed overrides
        timeout: 30s                 # bound on the whole case
        steps:
          - launch
          - do: favorites.add
            with: { count: 25 }
          - checkpoint: before-fault # snapshot of all user data, by name
          - stop
          - fault: corrupt-file
            file: store              # logical file names come from the target
            how: garbage-header
          - launch
          - do: favorites.list
        expect:
          - no-trap
          - fallback: restored-from-backup
          - recovered-within: 5s
          - preserved: before-fault
          - surfaced: warning

        """

    /// `designExample` with line `number` (1-based) replaced by `replacement`.
    static func designExample(replacingLine number: Int, with replacement: String) -> String {
        var lines = designExample.components(separatedBy: "\n")
        if lines.indices.contains(number - 1) { lines[number - 1] = replacement }
        return lines.joined(separator: "\n")
    }

    /// A minimal scenario around `steps` (each line already indented by two spaces).
    static func scenario(steps: String, expect: String = "") -> String {
        """
        name: t
        summary: test
        system: favorites
        steps:
        \(steps)
        """ + (expect.isEmpty ? "" : "\nexpect:\n\(expect)")
    }

    /// Loads `yaml`, returning the error, or nil when it loads.
    static func error(_ yaml: String, file: String = "t.yaml", baseDirectory: URL? = nil) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.load(yaml: yaml, file: file, baseDirectory: baseDirectory)
            return nil
        } catch {
            return error
        }
    }

    /// The fault step of a scenario made of `- launch`, `- stop` and then `stepYAML`
    /// (a list item, as in ``Fault/example``).
    static func faultStep(_ stepYAML: String, baseDirectory: URL? = nil) throws(ScenarioError) -> FaultStep {
        let indented = stepYAML.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        let yaml = scenario(steps: "  - launch\n  - stop\n" + indented)
        let scenario = try ScenarioLoader.load(yaml: yaml, file: "fault.yaml", baseDirectory: baseDirectory)
        guard case let .fault(step)? = scenario.steps.last?.action else {
            throw ScenarioError("no fault step", at: scenario.location)
        }
        return step
    }

    /// A fresh empty temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The cases of plans and nodes as optionals, so a test can `#require` the one it
/// expects instead of returning early when it meets another.
extension FileDamagePlan {
    var edits: [ByteEdit]? {
        if case let .edits(edits) = self { return edits }
        return nil
    }

    var truncatedLength: Int? {
        if case let .truncate(length) = self { return length }
        return nil
    }
}

extension ScenarioNode {
    var entries: [ScenarioNode.Entry]? {
        if case let .map(entries) = content { return entries }
        return nil
    }
}
