import Chaos
import Foundation
import Testing

/// Seed 001's scenarios end to end: the real `chaos` executable, real workers, the
/// real registry and fault proxy on loopback. The hardened app passes them; the
/// legacy app traps (force unwrap of a remote answer it never got, `try!` on a
/// code two creations shared), so every check is shown to fail.
@Suite(.serialized) struct FamilyScenarioTests {
    static let scenarios = ["family-create-offline", "family-remote-blackhole", "family-reset-peer-mid-sync",
                            "family-answer-cut-in-headers", "family-concurrent-create"]

    func run(_ variant: String) throws -> [String: CaseReport] {
        let (result, cases) = try ChaosExecutable.runScenarios(Self.scenarios, variant: variant)
        #expect(result.exitCode == (variant == "hardened" ? 0 : 1), "\(result.stdout)\n\(result.stderr)")
        return cases
    }

    @Test func hardenedPassesEveryFamilyScenario() throws {
        let cases = try run("hardened")
        for name in Self.scenarios {
            let report = try #require(cases[name])
            #expect(report.verdict == .passed, "\(name): \(report.expectations.filter { !$0.passed }.map(\.observed))")
            #expect(report.trap == nil)
        }
        let offline = try #require(cases["family-create-offline"])
        // No port in the report: the same seed gives the same report, timings aside.
        #expect(offline.injections.map(\.detail) == ["stopped listening (connections are refused); no open connection to reset",
                                                      "listening again, on the same port"])
        #expect(offline.injections.allSatisfy { $0.mechanism == "proxy" })
        #expect(try #require(offline.recoveryMs) < 5_000)
        // The black hole costs the request timeout, never the case's 20 s bound.
        let blackhole = try #require(cases["family-remote-blackhole"])
        let create = try #require(blackhole.steps.first { $0.label.hasPrefix("do family.create") })
        #expect(create.durationMs < 10_000, "creation took \(create.durationMs) ms")
        // A connection the black hole picks is on the timeline when it was picked, at
        // the start of the creation, not when the 2 s wait for its answer ended.
        let picked = try #require(blackhole.injections.first { $0.kind == "blackhole" && $0.detail.contains("on connection") })
        #expect(picked.atMs < create.startMs + create.durationMs - 1_000,
                "picked at \(picked.atMs) ms; the step ran \(create.startMs)–\(create.startMs + create.durationMs) ms")
        let reset = try #require(cases["family-reset-peer-mid-sync"])
        #expect(reset.injections.map(\.detail).contains("connection 2 reset (ECONNRESET) by reset-peer"))
        // Cut inside its headers, the answer is a broken connection: retried, registered once.
        let cut = try #require(cases["family-answer-cut-in-headers"])
        #expect(cut.injections.contains { $0.kind == "limit-data" }, "\(cut.injections.map(\.detail))")
    }

    @Test func legacyTrapsWhereTheOldCodeForceUnwrapped() throws {
        let cases = try run("legacy")
        for name in Self.scenarios {
            let report = try #require(cases[name])
            #expect(report.verdict == .deviated, "\(name) must deviate on legacy")
            let trap = try #require(report.trap, "\(name) must trap on legacy")
            #expect(trap.signal == 4)
            #expect(trap.site?.hasPrefix("LegacyFamilyCreation.swift:") == true, "\(name): site \(trap.site ?? "none")")
            #expect(report.reproduce == "chaos run \(name) --seed 1 --variant legacy")
        }
        #expect(cases["family-create-offline"]?.trap?.message?.contains("Unexpectedly found nil") == true)
        #expect(cases["family-concurrent-create"]?.trap?.message?.contains("UNIQUE constraint failed: family.code") == true)
        // The remote's probes are the lab's, not the app's: still read after the trap.
        let cut = try #require(cases["family-answer-cut-in-headers"])
        let registrations = try #require(cut.expectations.first { $0.label.contains("remote.registrations") })
        #expect(registrations.observed == "remote.registrations = 1", "\(registrations.observed)")
    }

    @Test func anUnknownRemoteProbeIsRefusedBeforeTheRun() throws {
        // `remote.*` names a probe the lab answers; an unknown one is refused at its line.
        let folder = try TemporaryFolder()
        let file = try folder.write("family-probe.yaml", """
            name: family-probe
            summary: An unknown remote probe is a harness error that names the known ones.
            system: family
            steps:
              - launch
            expect:
              - state: { probe: remote.nonsense, equals: 0 }
            """)
        let result = try ChaosExecutable.run(["run", file.path, "--report-dir", folder.url.path])
        #expect(result.exitCode == 64, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("family-probe.yaml:7:") && result.stderr.contains("remote.families"), "\(result.stderr)")
    }

    /// A worker must not inherit the lab's sockets: one that held the proxy's listening
    /// socket kept the port open after `network-down` closed it, and the app's connect
    /// hung for its 2 s timeout instead of being refused.
    @Test func networkDownArmedWhileTheAppRunsRefusesAtOnce() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("down-while-running.yaml", """
            name: down-while-running
            summary: The network goes down while the app runs; the next connection is refused at once.
            system: family
            steps:
              - launch
              - fault: network-down
              - do: family.create
                with: { name: Rivera }
                expect-error: false
            expect:
              - state: { probe: family.pending, equals: 1 }
            """)
        let result = try ChaosExecutable.run(["run", file.path, "--report-dir", folder.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        let create = try #require(report.cases.first?.steps.first { $0.label.hasPrefix("do family.create") })
        #expect(create.durationMs < 1_000, "refused, not timed out: \(create.durationMs) ms")
    }
}
