import Chaos
import Foundation
import Testing

/// A remote that is a database server: the orders example (Examples/Orders) keeps its
/// data in a real PostgreSQL server, through postgres-nio, behind Chaos's fault proxy.
/// `chaos check` catches its fragile store on the network cases, every injection made
/// `via proxy`; its fixed store passes, keeps every acknowledged order, and a commit
/// whose answer was lost is judged indeterminate, not lost. The acceptance checks of
/// "Your remote, your database", as a test: a throwaway cluster is started for it.
@Suite(.serialized) struct PostgresExampleTests {
    static let target = ChaosExecutable.built("chaos-example-orders")
    static var scenarios: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Orders/scenarios")
    }

    func run(_ arguments: [String], on cluster: PostgresCluster) throws -> (result: ChaosExecutable.Result, report: RunReport) {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(
            arguments + ["--target-exec", Self.target, "--report-dir", reports.url.path],
            environment: ["CHAOS_EXAMPLE_PG_PORT": "\(cluster.port)", "CHAOS_EXAMPLE_PG_USER": cluster.user],
            timeout: .seconds(300))
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        return (result, report)
    }

    static func noSilentLoss(_ report: CaseReport) -> String {
        report.expectations.first { $0.kind == "no-silent-loss" }?.observed ?? "not judged"
    }

    @Test func theFragileStoreIsCaughtOnTheNetworkAndTheFixedOneKeepsEveryAcknowledgedOrder() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }

        let fragile = try run(["check", "-j", "2", "--variant", "fragile"], on: cluster)
        #expect(fragile.result.exitCode == 1, "\(fragile.result.stdout)\n\(fragile.result.stderr)")
        ExampleVerdicts.hold(fragile.report, example: "orders", variant: "fragile")
        let caught = fragile.report.cases.filter { $0.scenario.hasPrefix("check-network-") && $0.verdict == .deviated }
        #expect(!caught.isEmpty, "\(fragile.result.stdout)")
        for report in caught {
            #expect(!report.injections.isEmpty && report.injections.allSatisfy { $0.mechanism == "proxy" },
                    "\(report.scenario): \(report.injections.map { "\($0.kind) via \($0.mechanism)" })")
            // It fails with the wait it made the user sit through, measured.
            let hang = report.expectations.first { $0.kind == "no-trap" && !$0.passed }?.observed ?? ""
            #expect(hang.isEmpty || (hang.contains(" s, until the case's timeout") && hang.contains("no answer to 'orders.")), "\(hang)")
        }

        let fixed = try run(["check", "-j", "2", "--variant", "fixed"], on: cluster)
        let failures = fixed.report.cases.filter { $0.verdict != .passed && $0.verdict != .skipped }
            .map { "\($0.scenario): \($0.error ?? "") \($0.expectations.filter { !$0.passed }.map(\.observed))" }
        #expect(fixed.result.exitCode == 0, "\(failures)\n\(fixed.result.stderr)")
        ExampleVerdicts.hold(fixed.report, example: "orders", variant: "fixed")
        let network = fixed.report.cases.filter { $0.scenario.hasPrefix("check-network-") }
        #expect(network.count == 4 && network.allSatisfy { $0.verdict == .passed }, "\(network.map { "\($0.scenario) \($0.verdict)" })")
        // Every acknowledged order kept ("all N acknowledged records kept"), and the order
        // whose answer was cut is there, unacknowledged: indeterminate, allowed.
        let observed = network.map(Self.noSilentLoss)
        #expect(observed.allSatisfy { $0.hasPrefix("all ") && $0.contains("acknowledged records kept") }, "\(observed)")
        #expect(observed.contains { $0.contains("indeterminate") }, "\(observed)")
        let answerLost = network.first { $0.scenario == "check-network-answer-lost-on-save" }.map(Self.noSilentLoss) ?? ""
        #expect(answerLost.contains("1 indeterminate"), "\(answerLost)")
        // The app keeps nothing on the device: every storage case is skipped, saying why.
        let storage = fixed.report.cases.filter { !$0.scenario.hasPrefix("check-network-") }
        #expect(storage.count == 31 && storage.allSatisfy { $0.verdict == .skipped && ($0.error ?? "").contains("keeps no files") },
                "\(storage.map { "\($0.scenario) \($0.verdict) \($0.error ?? "")" })")
    }

    /// An app that backs off two seconds after its server failed (`--variant backoff`):
    /// the read right after the network comes back falls in the pause and fails; Chaos
    /// keeps asking it until it answers, so the network cases pass with a recovery of
    /// about two seconds, as the user would see it.
    @Test func anAppThatBacksOffPassesTheNetworkCasesWithTheRecoveryItTook() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let network = ["check-network-down-on-save", "check-network-reset-on-save", "check-network-answer-lost-on-save", "check-network-silent-on-save"]
        let backoff = try run(["check", "-j", "2", "--variant", "backoff"] + network.flatMap { ["--only", $0] }, on: cluster)
        #expect(backoff.result.exitCode == 0, "\(backoff.result.stdout)\n\(backoff.result.stderr)")
        let cases = backoff.report.cases.filter { network.contains($0.scenario) }
        #expect(cases.count == 4 && cases.allSatisfy { $0.verdict == .passed }, "\(cases.map { "\($0.scenario) \($0.verdict)" })")
        // Recovered after the pause, not at the first read: about two seconds.
        let paused = cases.filter { ($0.recoveryMs ?? 0) >= 1_500 && ($0.recoveryMs ?? 0) <= 4_500 }
        #expect(!paused.isEmpty, "\(cases.map { "\($0.scenario) \($0.recoveryMs ?? -1) ms" })")
        #expect(paused.allSatisfy { $0.steps.contains { ($0.detail ?? "").contains("while the app recovered") } })
    }

    /// The example's own scenario: the connection reset as `COMMIT` leaves. The fragile
    /// store told the user the order was placed inside the transaction: it is lost.
    @Test func aCommitCutAfterTheUserWasToldLosesTheFragileStoresOrder() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let file = Self.scenarios.appendingPathComponent("orders-commit-cut.yaml").path

        let fragile = try run(["run", file, "--variant", "fragile"], on: cluster)
        #expect(fragile.result.exitCode == 1, "\(fragile.result.stdout)")
        let lost = fragile.report.cases.first.map(Self.noSilentLoss) ?? ""
        #expect(lost.contains("1 of ") && lost.contains("lost, and nothing shown to the user"), "\(lost)")
        #expect(fragile.report.cases.first?.injections.contains { $0.kind == "reset-peer" && $0.mechanism == "proxy" } == true)

        let fixed = try run(["run", file, "--variant", "fixed"], on: cluster)
        #expect(fixed.result.exitCode == 0, "\(fixed.result.stdout)")
    }

    @Test func withoutItsServersPortTheTargetSaysWhatToSet() throws {
        let data = try TemporaryFolder()
        let result = try ChaosExecutable.run(["--data", data.url.path, "--variant", "fixed", "--seed", "1"],
                                             executable: Self.target, environment: ["CHAOS_EXAMPLE_PG_PORT": ""])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("set CHAOS_EXAMPLE_PG_PORT to the port of the server 'postgres' listens on"), "\(result.stderr)")
    }
}
