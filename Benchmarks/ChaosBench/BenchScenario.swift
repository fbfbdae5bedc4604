import Chaos

/// The bench's cases on the built-in app: seed `size` favourites, stop, then `steps`
/// (YAML step lines, each indented by two spaces), with room for a million rows.
enum BenchScenario {
    static let relaunchOnce = "  - launch\n  - do: favorites.list\n  - stop\n"

    static func seeded(_ name: String, size: Int, then steps: String) throws -> Scenario {
        let yaml = """
        name: \(name)
        summary: bench
        system: favorites
        timeout: 600s
        steps:
          - launch
          - do: favorites.seed
            with: { count: \(size) }
          - stop
        \(steps)
        """
        return try ScenarioLoader.load(yaml: yaml, file: "\(name).yaml", baseDirectory: nil)
    }
}
