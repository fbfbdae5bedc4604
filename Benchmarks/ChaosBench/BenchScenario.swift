import Chaos

/// The bench's cases on the built-in app: seed `size` favourites, stop, then `steps`
/// (YAML step lines, each indented by two spaces), with room for a million rows.
enum BenchScenario {
    static let relaunchOnce = "  - launch\n  - do: favorites.list\n  - stop\n"

    /// `expect` (YAML expectation lines, each indented by two spaces), when given.
    static func seeded(_ name: String, size: Int, then steps: String, expect: String? = nil) throws -> Scenario {
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
        """ + (expect.map { "\nexpect:\n\($0)" } ?? "")
        return try ScenarioLoader.load(yaml: yaml, file: "\(name).yaml", baseDirectory: nil)
    }
}

extension TargetSelection {
    /// The built-in app, as `chaos` selects it (`chaos worker`), its declaration asked of
    /// one worker.
    static func builtIn(chaos: String, variant: String) throws -> TargetSelection {
        let worker = WorkerCommand(executable: chaos, arguments: ["worker"], environment: WorkerCommand.workerEnvironment())
        return try select(worker, name: RunInfo.hostedTarget, targetExec: nil, variant: variant)
    }
}
