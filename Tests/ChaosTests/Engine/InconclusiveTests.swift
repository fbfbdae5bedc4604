import Chaos
import Foundation
import Testing

/// A fault that never bit proves nothing: the case is `inconclusive`, says which fault
/// and why, and fails the gate unless `--allow-inconclusive`.
@Suite(.serialized) struct InconclusiveTests {
    static var neverCheckpoints: String {
        URL(fileURLWithPath: ChaosExecutable.path).deletingLastPathComponent().appendingPathComponent("chaos-test-never-checkpoints").path
    }

    func run(_ yaml: String, _ arguments: [String] = []) throws -> (result: ChaosExecutable.Result, report: CaseReport) {
        let folder = try TemporaryFolder()
        let file = try folder.write("case.yaml", yaml)
        let result = try ChaosExecutable.run(["run", file.path, "--report-dir", folder.url.path] + arguments)
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        return (result, try #require(report.cases.first, "\(result.stdout)\n\(result.stderr)"))
    }

    static func damage(_ how: String, scope: String?) -> String {
        """
        name: never-checkpoints
        summary: an app whose pages all live in its WAL
        system: notes
        steps:
          - launch
          - do: workload.write
            repeat: 5
          - stop
          - fault: corrupt-file
            file: store
            how: \(how)\(scope.map { "\n    scope: \($0)" } ?? "")
          - launch
          - do: workload.read
        expect:
          - no-trap
          - no-silent-loss
        """
    }

    @Test(arguments: ["garbage-header", "flip-bytes", "zero-pages", "truncate"])
    func damageToTheFileOfAnAppThatNeverCheckpointsMissesAndSaysWhy(how: String) throws {
        let target = ["--target-exec", Self.neverCheckpoints, "--variant", "any"]
        let missed = try run(Self.damage(how, scope: nil), target)
        #expect(missed.result.exitCode == 1, "an inconclusive case fails the gate")
        #expect(missed.report.verdict == .inconclusive)
        #expect(missed.report.error?.contains("every page it could reach is read from notes.sqlite-wal") == true,
                "\(missed.report.error ?? "no reason")")
        #expect(missed.report.faults?.first?.hadEffect == false)
        #expect(missed.result.stdout.contains("1 fault had no effect"))

        let reached = try run(Self.damage(how, scope: "database"), target)
        #expect(reached.report.verdict != .inconclusive, "\(reached.report.error ?? "")")
        #expect(reached.report.faults?.first?.hadEffect == true, "\(reached.report.faults ?? [])")
        #expect(reached.report.steps[3].detail?.contains("into notes.sqlite first") == true, "\(reached.report.steps[3].detail ?? "")")
    }

    @Test func aThrowAtAPointNeverReachedIsInconclusiveUnlessAllowed() throws {
        let yaml = """
            name: unreached-point
            summary: a throw armed where the workload never goes
            system: favorites
            steps:
              - launch
              - fault: throw
                point: store/nowhere/fetch
              - do: favorites.add
              - do: favorites.list
            """
        let gate = try run(yaml)
        #expect(gate.result.exitCode == 1)
        #expect(gate.report.verdict == .inconclusive)
        #expect(gate.report.error == "step 2 'throw store/nowhere/fetch' had no effect: the point store/nowhere/fetch was never reached")
        let allowed = try run(yaml, ["--allow-inconclusive"])
        #expect(allowed.result.exitCode == 0, "\(allowed.result.stdout)")
        #expect(allowed.report.verdict == .inconclusive)
    }

    @Test func aFaultThatBitAndAnExpectationThatFailedIsDeviatedNotInconclusive() throws {
        let yaml = """
            name: both
            summary: one fault bites, the app fails an expectation
            system: favorites
            steps:
              - launch
              - fault: throw
                point: store/favorites/fetch
              - do: favorites.list
            expect:
              - surfaced: none
            """
        let outcome = try run(yaml)
        #expect(outcome.report.verdict == .deviated)
        #expect(outcome.report.faults?.first?.effect == "fired 1 time in 1 hit of store/favorites/fetch", "\(outcome.report.faults ?? [])")
    }
}
