import Chaos
import Foundation
import Testing

/// Network faults on a user's own remote: the sync example (a notebook saved on the
/// device and synced to the app's own Hummingbird server, its declared remote). Chaos
/// starts the server for each case behind its fault proxy; the fragile sync, which trusts
/// the network, loses notes the user was told were saved; the fixed one passes the whole
/// catalog, network cases included.
@Suite(.serialized) struct RemoteExampleTests {
    static let sync = CheckTests.example("sync")

    func check(_ arguments: [String]) throws -> (result: ChaosExecutable.Result, report: RunReport) {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["check", "-j", "2", "--target-exec", Self.sync, "--report-dir", reports.url.path] + arguments,
                                             timeout: .seconds(300))
        return (result, try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName)))
    }

    @Test func theFragileSyncLosesSavedNotesWhenTheRemoteIsDownOrResets() throws {
        let caught = try check(["--variant", "fragile"])
        #expect(caught.result.exitCode == 1, "\(caught.result.stdout)")
        ExampleVerdicts.hold(caught.report, example: "sync", variant: "fragile")
        for report in caught.report.cases where ["check-network-down-on-save", "check-network-reset-on-save"].contains(report.scenario) {
            #expect(report.verdict == .deviated, "\(report.scenario): \(report.verdict)")
            let loss = report.expectations.first { $0.kind == "no-silent-loss" }
            #expect(loss?.passed == false && loss?.observed.contains("lost, and nothing shown to the user") == true, "\(loss?.observed ?? "")")
            #expect(!report.injections.isEmpty && report.injections.allSatisfy { $0.mechanism == InjectionRecord.Mechanism.proxy },
                    "\(report.injections.map { "\($0.kind) via \($0.mechanism)" })")
        }
    }

    @Test func theFixedSyncPassesTheCatalogNetworkCasesIncluded() throws {
        let passed = try check(["--variant", "fixed"])
        let failures = passed.report.cases.filter { $0.verdict != .passed && $0.verdict != .skipped }
            .map { "\($0.scenario): \($0.error ?? "") \($0.expectations.filter { !$0.passed }.map(\.observed))" }
        #expect(passed.result.exitCode == 0, "\(failures)")
        ExampleVerdicts.hold(passed.report, example: "sync", variant: "fixed")
        let network = passed.report.cases.filter { $0.scenario.hasPrefix("check-network-") }
        #expect(network.count == 4, "\(network.map(\.scenario))")
        // Every network fault acted on the app's connections to its own server.
        #expect(network.flatMap { $0.faults ?? [] }.allSatisfy { $0.hadEffect == true }, "\(network.flatMap { $0.faults ?? [] })")
    }

    /// A target with no remote is never given the network cases.
    @Test func aTargetWithoutARemoteHasNoNetworkCases() throws {
        let listed = try ChaosExecutable.run(["check", "--list", "--target-exec", CheckTests.example("notes")])
        #expect(listed.exitCode == 0)
        #expect(!listed.stdout.contains("check-network-"), "\(listed.stdout)")
        let sync = try ChaosExecutable.run(["check", "--list", "--target-exec", Self.sync])
        #expect(sync.stdout.split(separator: "\n").filter { $0.hasPrefix("check-network-") }.count == 4, "\(sync.stdout)")
    }
}

/// docs/TARGETS.md's table of the catalog names every case `chaos check --list` runs, and
/// no other: the built-in app's 31, and the four network cases of a target with a remote.
@Suite struct CatalogTableTests {
    @Test func theTableInTargetsMDIsTheCatalog() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/TARGETS.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `check-") }
        let documented = Set(rows.flatMap { row in
            row.split(separator: "|")[0].split(separator: "`").filter { $0.hasPrefix("check-") }.map(String.init)
        })
        let builtIn = try ChaosExecutable.run(["check", "--list"])
        let withRemote = try ChaosExecutable.run(["check", "--list", "--target-exec", RemoteExampleTests.sync])
        let listed = Set((builtIn.stdout + "\n" + withRemote.stdout).split(separator: "\n").map(String.init))
        #expect(listed.count == 42, "\(listed.sorted())")
        let extra = documented.subtracting(listed).sorted()
        let missing = listed.subtracting(documented).sorted()
        #expect(documented == listed, "documented, not listed: \(extra); listed, not documented: \(missing)")
    }
}
