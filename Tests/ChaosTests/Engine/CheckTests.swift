import Chaos
import Foundation
import Testing

/// `chaos check`: the storage catalog on any target that declares a workload, with no
/// scenario written. The acceptance checks of "Your own stack, first class", as tests:
/// each example's fragile variant is caught with a trap at its own file:line, its
/// fixed variant passes the whole catalog; the built-in app likewise.
@Suite(.serialized) struct CheckTests {
    static func example(_ name: String) -> String {
        URL(fileURLWithPath: ChaosExecutable.path).deletingLastPathComponent().appendingPathComponent("chaos-example-\(name)").path
    }

    func check(_ arguments: [String]) throws -> (result: ChaosExecutable.Result, report: RunReport) {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["check", "-j", "2", "--report-dir", reports.url.path] + arguments,
                                             timeout: .seconds(300))
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        return (result, report)
    }

    @Test(arguments: [("notes", "fragile", "fixed", "FragileNotesRepository.swift:", "vfs"),
                      ("journal", "template", "careful", "TemplateStartup.swift:13", "vfs"),
                      ("ledger", "fragile", "fixed", "FragileLedger.swift:", "vfs"),
                      ("todos", "fragile", "fixed", "FragileTodoStore.swift:", "libc")])
    func theFragileVariantTrapsAtItsOwnLineAndTheFixedOnePassesTheCatalog(
        example: String, fragile: String, fixed: String, site: String, seam: String
    ) throws {
        let target = Self.example(example)
        let caught = try check(["--target-exec", target, "--variant", fragile])
        #expect(caught.result.exitCode == 1, "\(caught.result.stdout)\n\(caught.result.stderr)")
        let trapped = caught.report.cases.filter { $0.trap != nil }
        #expect(!trapped.isEmpty, "a fragile start-up traps on a damaged store")
        // Every named site is the fragile code's own. (sqlite-nio's assertion on a connection
        // dropped open may fire on one of its pool's threads, with no frame of the app.)
        let sites = trapped.compactMap { $0.trap?.site }
        #expect(!sites.isEmpty && sites.allSatisfy { $0.hasPrefix(site) }, "\(trapped.map { $0.trap?.site ?? "nil" })")
        for report in trapped {
            let line = report.scenario.hasSuffix("-sweep") ? "chaos explore " : "chaos check --only \(report.scenario) "
            #expect(report.reproduce.hasPrefix(line) && report.reproduce.contains("--target-exec \(target)"), "\(report.reproduce)")
        }
        #expect(caught.report.run.target == target)
        ExampleVerdicts.hold(caught.report, example: example, variant: fragile)

        let passed = try check(["--target-exec", target, "--variant", fixed])
        let failures = passed.report.cases.filter { $0.verdict != .passed && $0.verdict != .skipped }
            .map { "\($0.scenario): \($0.error ?? "") \($0.expectations.filter { !$0.passed }.map(\.observed))" }
        #expect(passed.result.exitCode == 0, "\(failures)")
        ExampleVerdicts.hold(passed.report, example: example, variant: fixed)
        // 29 scenarios and two sweeps; the journal's older store adds its two migration cases,
        // and its shared container (its widget's) the three suspension and four peer cases.
        #expect(passed.report.cases.count == (example == "journal" ? 40 : 31), "29 scenarios and two sweeps")
        // Skipped: the WAL cases of an app without a WAL; the lock cases of an app without SQLite.
        let skipped = Set(passed.report.cases.filter { $0.verdict == .skipped }.map(\.scenario))
        #expect(skipped.isSubset(of: ["check-wal-garbage", "check-wal-lost", "check-io-error-at-launch-lock", "check-io-error-on-save-lock"]))
        #expect(seam == "vfs" || skipped.contains("check-io-error-on-save-lock"), "a target without SQLite takes no locks")
        // Every storage fault reached the target's own files, through the seam that reaches
        // them: its own SQLite (sqlite-nio's copy, for the ledger), or libc (a JSON file).
        let storage = passed.report.cases.filter { $0.verdict != .skipped }.flatMap { $0.faults ?? [] }
            .filter { ["disk-full", "io-error"].contains($0.kind) }
        #expect(!storage.isEmpty && storage.allSatisfy { $0.fired > 0 && $0.seam == seam },
                "\(storage.map { "\($0.label) through \($0.seam ?? "?"): \($0.effect ?? "")" })")
    }

    @Test func theBuiltInAppPassesHardenedAndIsCaughtOnLegacy() throws {
        let hardened = try check([])
        let failures = hardened.report.cases.filter { $0.verdict != .passed }.map { "\($0.scenario): \($0.expectations.filter { !$0.passed }.map(\.observed))" }
        #expect(hardened.result.exitCode == 0, "\(failures)")
        let legacy = try check(["--variant", "legacy", "--only", "check-store-garbage-header", "--only", "check-io-error-on-save-write",
                                "--only", "check-device-locked-at-launch", "--only", "check-memory-pressure-at-launch",
                                "--only", "check-suspended-while-saving"])
        #expect(legacy.result.exitCode == 1)
        #expect(legacy.report.cases.first { $0.scenario == "check-store-garbage-header" }?.trap?.site == "LegacyStore.swift:18")
        // A prewarm launch, before the device was first unlocked: the legacy container traps.
        #expect(legacy.report.cases.first { $0.scenario == "check-device-locked-at-launch" }?.trap?.site == "LegacyStore.swift:18")
        // SQLITE_NOMEM at its launch: the same.
        #expect(legacy.report.cases.first { $0.scenario == "check-memory-pressure-at-launch" }?.trap?.site == "LegacyStore.swift:18")
        // Suspended in the middle of a save: the legacy app never abandons it, and is
        // killed holding the WAL's write lock on its shared store (hardened passed above).
        let suspended = legacy.report.cases.first { $0.scenario == "check-suspended-while-saving" }?.expectations.first { $0.kind == "no-trap" }?.end
        #expect(suspended == .terminatedBySystem(file: "store", lock: "a write lock on app.sqlite-shm (POSIX, bytes 120–120)"), "\(String(describing: suspended))")
    }

    @Test func aTargetWithoutAWorkloadIsToldHowToDeclareOne() throws {
        let folder = try TemporaryFolder()
        let script = try folder.write("no-workload.sh", """
            #!/bin/sh
            \(ShellTarget.preamble(#"{"files":{"store":"s.sqlite"},"actions":["a.b"],"probes":["health","surfaced"]}"#))
            read line
            """, executable: true)
        let result = try ChaosExecutable.run(["check", "--target-exec", script.path, "--variant", "x"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("declares no workload"), "\(result.stderr)")
        #expect(result.stderr.contains("Workload(write:"))
    }

    @Test func theListNamesEveryCaseAndOnlyRefusesAnUnknownOne() throws {
        let list = try ChaosExecutable.run(["check", "--list"])
        let names = list.stdout.split(separator: "\n").map(String.init)
        #expect(names.count == 38)
        #expect(names.contains("check-store-zero-length") && names.contains("check-write-workload-crash-sweep"))
        let unknown = try ChaosExecutable.run(["check", "--only", "check-store-zero-lenght"])
        #expect(unknown.exitCode == 64)
        #expect(unknown.stderr.contains("no case named 'check-store-zero-lenght'"))
    }
}

/// What a target executable links: the target product, never the controller's SwiftNIO
/// or Yams (a user's target stays small, and starts fast hundreds of times a run).
@Suite struct TargetProductTests {
    @Test(arguments: ["notes", "journal"])
    func anExampleTargetLinksNeitherSwiftNIONorYams(example: String) throws {
        let binary = try Data(contentsOf: URL(fileURLWithPath: CheckTests.example(example)))
        for module in ["NIOCore", "NIOPosix", "Yams", "ArgumentParser"] {
            // Swift symbols carry their module's name, length-prefixed: 7NIOCore, 4Yams.
            let mangled = Data("\(module.count)\(module)".utf8)
            #expect(binary.range(of: mangled) == nil, "\(example) links \(module)")
        }
        #expect(binary.range(of: Data("11ChaosTarget".utf8)) != nil, "the check sees the target's own symbols")
    }
}
