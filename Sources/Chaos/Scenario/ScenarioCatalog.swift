import ChaosTarget
import Foundation

/// A folder of scenario files that commands name by name (`chaos run corrupted-db`,
/// `chaos list`): the scenarios a target ships (``TargetDeclaration/scenarioFolder``),
/// or the storage catalog of `chaos check`. Each file's `name:` is its base name, and a
/// `fixtures/NAME` path in one of them resolves to the catalog's fixtures folder.
package struct ScenarioCatalog: Sendable, Equatable {
    package var folder: URL
    package var fixtures: URL
    /// Where its scenarios say they come from (``ScenarioOrigin``).
    package var origin: ScenarioOrigin

    /// A target's scenarios: its fixtures beside the folder, as a resource bundle lays
    /// them out (`catalog/`, `fixtures/`).
    package init(folder: URL) {
        self.init(folder: folder, fixtures: folder.deletingLastPathComponent().appendingPathComponent("fixtures"), origin: .catalog)
    }

    package init(folder: URL, fixtures: URL, origin: ScenarioOrigin) {
        self.folder = folder
        self.fixtures = fixtures
        self.origin = origin
    }

    /// The catalog a target declares, if any.
    package init?(declaredBy declaration: TargetDeclaration) {
        guard let folder = declaration.scenarioFolder else { return nil }
        self.init(folder: URL(fileURLWithPath: folder))
    }

    /// Its scenario files, by name.
    package func files() throws(ScenarioError) -> [URL] {
        try ScenarioLoader.scenarioFiles(in: folder)
    }

    /// Its scenario names (the files' base names), sorted, without loading them.
    package var names: [String] {
        ((try? files()) ?? []).map { $0.deletingPathExtension().lastPathComponent }.sorted()
    }

    /// Every scenario, sorted by name.
    package func scenarios() throws(ScenarioError) -> [Scenario] {
        var scenarios: [Scenario] = []
        for url in try files() { scenarios.append(try load(url)) }
        return scenarios.sorted { $0.name < $1.name }
    }

    /// The scenario `name`, or nil when the catalog has none of that name.
    package func scenario(named name: String) throws(ScenarioError) -> Scenario? {
        guard let url = try files().first(where: { $0.deletingPathExtension().lastPathComponent == name }) else { return nil }
        return try load(url)
    }

    /// One of its files: its `name:` must be the file's base name.
    func load(_ url: URL) throws(ScenarioError) -> Scenario {
        var scenario = try ScenarioLoader.load(contentsOf: url, fixturesDirectory: fixtures, requireNameMatchesFile: true)
        scenario.origin = origin
        return scenario
    }
}
