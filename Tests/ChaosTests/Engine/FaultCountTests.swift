import Chaos
import Foundation
import Testing

/// `after` and `times` count over the whole case, per armed fault, across relaunches:
/// run end to end on the built-in app, whose workers report where each fault stands.
@Suite(.serialized) struct FaultCountTests {
    func run(_ steps: String, expect: String = "  - no-trap") throws -> CaseReport {
        let folder = try TemporaryFolder()
        let yaml = "name: counts\nsummary: counting firings\nsystem: favorites\nsteps:\n\(steps)\nexpect:\n\(expect)\n"
        let file = try folder.write("counts.yaml", yaml)
        let result = try ChaosExecutable.run(["run", file.path, "--report-dir", folder.url.path])
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        return try #require(report.cases.first, "\(result.stdout)\n\(result.stderr)")
    }

    @Test func aWildcardThatFiresOnceFiresOnceInTheWholeCase() throws {
        let report = try run("""
              - launch
              - do: favorites.add
                with: { count: 3 }
              - fault: throw
                point: store/favorites/*
                times: 1
              - do: favorites.list
              - stop
              - launch
              - do: favorites.list
            """)
        #expect(report.injections.filter { $0.kind == "throw" }.count == 1, "\(report.injections.map(\.detail))")
        #expect(report.faults?.first { $0.id == "step-3" }?.fired == 1)
        #expect(report.steps.map(\.outcome) == [.ok, .ok, .ok, .error, .ok, .ok, .ok], "\(report.steps.map(\.detail))")
    }

    @Test func twoStorageFaultsOfOneKindKeepTheirOwnCounts() throws {
        // Two slow disks: neither fails a call, so both see every read, write and sync,
        // each counting to its own `times`, over two runs of the app. Counted per kind,
        // the firings of the first run would use up the second fault and cut the first short.
        let report = try run("""
              - launch
              - fault: slow-io
                latency: 1ms
                times: 300
              - fault: slow-io
                latency: 1ms
                times: 100
              - do: favorites.add
              - stop
              - launch
              - do: favorites.add
                with: { count: 60 }
            """)
        let faults = Dictionary(uniqueKeysWithValues: (report.faults ?? []).map { ($0.id, $0) })
        #expect(faults["step-2"]?.fired == 300, "\(report.faults ?? [])")
        #expect(faults["step-3"]?.fired == 100, "\(report.faults ?? [])")
        // Spent, it still counts the operations of the worker it was spent in (a later
        // worker is not given a spent fault).
        #expect((faults["step-3"]?.hits ?? 0) > 100, "it went on counting operations after it was spent")
    }
}
