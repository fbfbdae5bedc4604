import Chaos
import Foundation

/// The worker process: spawn to its ready line, and one `do` round trip (the JSON
/// request, the action, the reply), from real cases run by the library.
enum WorkerBenchmark {
    static func run(chaos: String, rounds: Int) throws {
        let requests = 200
        let yaml = """
        name: worker-round-trip
        summary: bench
        system: favorites
        steps:
          - launch
          - do: favorites.list
            repeat: \(requests)
        """
        let scenario = try ScenarioLoader.load(yaml: yaml, file: "worker-round-trip.yaml", baseDirectory: nil)
        let options = RunOptions(target: try TargetSelection.builtIn(chaos: chaos, variant: "hardened"), seed: nil, keepScratch: false)
        var ready: [Double] = []
        var roundTrip: [Double] = []
        for _ in 0..<rounds {
            let report = CaseRunner(scenario: scenario, options: options).run()
            guard report.verdict == .passed, report.steps.count == 2 else {
                print("Worker: the bench case did not pass (\(report.verdict.rawValue)): \(report.error ?? "")")
                return
            }
            if let detail = report.steps[0].detail, let range = detail.range(of: "worker ready in "),
               let ms = Double(detail[range.upperBound...].prefix { $0.isNumber }) {
                ready.append(ms)
            }
            roundTrip.append(Double(report.steps[1].durationMs) / Double(requests))
        }
        print("The worker (release build, \(rounds) cases)")
        line("  process start to ready", Sample(values: ready).formatted("ms", digits: 0))
        BenchFigures.record("worker: process start to ready", unit: "ms", Sample(values: ready))
        BenchFigures.record("worker: one do round trip", unit: "ms", Sample(values: roundTrip))
        line("  one `do` round trip (favorites.list)", Sample(values: roundTrip).formatted("ms", digits: 2)
            + " (mean of \(requests) a case)")
    }
}
