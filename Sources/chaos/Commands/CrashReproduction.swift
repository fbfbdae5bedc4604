import ArgumentParser
import Chaos
import ChaosTarget
import Foundation

/// `chaos reproduce --from-crash`: a crash log in; a scenario that traps the same way
/// out — at the same site, or with the same `Fatal error` message.
///
/// With `--scenarios`, the user's own scenarios are run on their target (on `--variant`
/// when given, else on each variant it declares) and the matches run again. Without,
/// nothing needs writing first: the catalogs that fit the target are run — the storage
/// catalog as `chaos check` builds it for that target (and, for the built-in app, its
/// own catalog too, for a target that ships one: the built-in app does) — on each variant; when no
/// case traps that way, a hunt aimed at the crash (``HuntAim``: its message's words and
/// its frames' names weigh the draws) runs within `--budget`, and the first schedule
/// that traps the same way is shrunk and written beside the report as a scenario, with
/// the `chaos run` line that reproduces it.
struct CrashReproduction {
    var log: String
    var scenarios: [String]
    var target: TargetOptions
    var reportDir: String
    var budget: Duration
    var jobs: Int

    func run() throws {
        let text = try CommandFailure.usage { () throws -> String in
            guard let text = try? String(contentsOf: URL(fileURLWithPath: log), encoding: .utf8) else {
                throw CommandFailure("chaos: cannot read the crash log \(log)", .usage)
            }
            return text
        }
        let signature = CrashSignature(log: text)
        guard !signature.isEmpty else {
            // Input Chaos cannot use: bad usage, as a malformed scenario is.
            throw CommandFailure("chaos reproduce: the crash log has no Swift \"Fatal error\" line and no backtrace frame in "
                + "project code: nothing to match", .usage)
        }
        print("crash log: \(signature.message.map { "\"\($0)\"" } ?? "no message")\(signature.site.map { " at \($0)" } ?? "")")
        if !scenarios.isEmpty { return try fromScenarios(signature) }
        let variants = try self.variants()
        // A crash log that names its site is reproduced at that site: a runtime message
        // ("Unexpectedly found nil…") at some other line is another crash.
        var elsewhere: [(report: CaseReport, match: CrashMatch)] = []
        for variant in variants {
            let choice = try TargetOptions.resolve(targetExec: target.targetExec, variant: variant)
            let matches = try fromCatalogs(choice, signature: signature)
            let atTheSite = matches.filter { signature.site == nil || $0.match != .message }
            if !atTheSite.isEmpty { return try found(atTheSite, on: choice) }
            elsewhere += matches
        }
        // No case of the catalogs traps that way: hunt for it, the budget shared by the variants.
        let frames = text.split(separator: "\n").map(String.init).filter { $0.contains(".swift") }
        for (index, variant) in variants.enumerated() {
            let choice = try TargetOptions.resolve(targetExec: target.targetExec, variant: variant)
            let share = budget / (variants.count - index)
            if try aimedHunt(choice, signature: signature, frames: frames, budget: share) { return }
        }
        print("No catalog case, and no schedule hunted in \(ScenarioDuration.format(budget)), traps at \(signature.site ?? "that site or with that message").")
        for (report, _) in elsewhere {
            print("  \(report.scenario) traps with the same message at \(report.trap?.site ?? "another site"): \(report.reproduce)")
        }
        print("Hunt longer (--budget 10m), write a scenario for it (docs/SCENARIOS.md), or put the user's damaged database in "
            + "place with replace-file.")
        // Not reproduced is no finding: exit 0, as docs/HUNT.md says (1 is for a crash reproduced).
    }

    /// The variants to try: the one asked for; legacy for the built-in app (the code the
    /// seeds' crash reports came from); else every variant the target declares.
    private func variants() throws -> [String?] {
        if let variant = target.variant { return [variant] }
        guard target.targetExec != nil else { return ["legacy"] }
        let declared = try target.resolve().variants
        return declared.isEmpty ? [nil] : declared
    }

    // MARK: - The catalogs

    /// The catalogs that fit the target, run on it; the cases whose trap matches, best first.
    private func fromCatalogs(_ choice: TargetSelection, signature: CrashSignature) throws -> [(report: CaseReport, match: CrashMatch)] {
        let options = RunOptions(target: choice, seed: nil, keepScratch: false)
        var cases: [CaseReport] = []
        let command = "chaos reproduce --from-crash \(log)"
        if let own = try CommandFailure.usage({ try choice.catalog?.scenarios() }) {
            print("running \(choice.name)'s own \(own.count) scenarios, variant \(choice.variant)…")
            cases += SuiteRunner(options: options, command: command).run(own, jobs: jobs).cases
        }
        // The built-in app's own catalog found it at its site: the storage catalog need not run.
        let atTheSite = cases.contains { report in report.trap.flatMap(signature.match).map { signature.site == nil || $0 != .message } ?? false }
        if !atTheSite, choice.declaration.workload != nil {
            let catalog = try CommandFailure.usage { try CheckCatalog.scenarios(for: choice.declaration) }
                .filter { CheckCatalog.applies($0, to: choice.declaration) }
            print("running the storage catalog (\(StorageCheck.caseNames(of: catalog).count) cases, as chaos check) on \(choice.name), "
                + "variant \(choice.variant)…")
            var check = StorageCheck(catalog: catalog, options: options, command: command)
            check.jobs = jobs
            cases += check.run().cases
        }
        let matched = cases.compactMap { report in report.trap.flatMap(signature.match).map { (report, $0) } }
        // Best first; among equals, the order they ran in.
        return matched.enumerated().sorted { lhs, rhs in
            lhs.element.1 != rhs.element.1 ? lhs.element.1 > rhs.element.1 : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Says which cases reproduce the crash, with their run lines, and writes their report.
    private func found(_ matches: [(report: CaseReport, match: CrashMatch)], on choice: TargetSelection) throws {
        print("\(matches.count) case\(matches.count == 1 ? "" : "s") reproduce it, best first:")
        for (report, match) in matches {
            let trap = report.trap.map { " trap \($0.signalName)\($0.site.map { " at \($0)" } ?? "")" } ?? ""
            print("  \(report.scenario):\(trap) — \(match.reason)")
            print("    reproduce: \(report.reproduce)")
        }
        let report = RunReport(run: RunInfo.now(options: RunOptions(target: choice, seed: nil, keepScratch: false)),
                               cases: matches.map(\.report))
        let written = try ReportSet.write(report, to: URL(fileURLWithPath: reportDir))
        print("report: \(written.html.path)")
        // Found and reproduced: the crash is real, so the command does not say "all passed".
        throw ExitCode(.failed)
    }

    // MARK: - The aimed hunt

    /// Hunts for a schedule that traps the way the log says; true (after saying so and
    /// writing it) when one did.
    private func aimedHunt(_ choice: TargetSelection, signature: CrashSignature, frames: [String], budget: Duration) throws -> Bool {
        guard choice.declaration.workload != nil else {
            print("\(choice.name) declares no workload: no hunt can be aimed at the crash (docs/TARGETS.md).")
            return false
        }
        let options = RunOptions(target: choice, seed: nil, keepScratch: false)
        let found = (reportDir.hasSuffix("/") ? reportDir : reportDir + "/") + "found"
        let seed = signature.huntSeed
        var hunter = Hunter(options: options, seed: seed, foundDirectory: URL(fileURLWithPath: found), foundPath: found)
        hunter.budget = budget
        hunter.jobs = jobs
        let lean = HuntAim(message: signature.message, frames: frames, actions: choice.declaration.actions)
        hunter.aim = (lean, { trap in signature.match(trap).map { signature.site == nil || $0 != .message } ?? false })
        print("no catalog case traps that way: hunting for it on \(choice.name), variant \(choice.variant), seed \(seed), "
            + "budget \(ScenarioDuration.format(budget))…")
        let console = HuntConsole()
        let outcome: HuntOutcome
        do { outcome = try hunter.run(progress: console.show) } catch {
            throw CommandFailure("chaos reproduce: \(error)", .harnessError)
        }
        guard let finding = outcome.findings.first else {
            print("  \(outcome.schedules) schedules, none trapped that way")
            return false
        }
        print("found in schedule \(finding.schedule) of \(outcome.schedules): \(finding.file)")
        var report = RunReport(run: RunInfo.now(options: options), cases: outcome.cases, durationMs: outcome.durationMs)
        report.run.seed = seed
        report.hunt = outcome.summary(shard: nil)
        let written = try ReportSet.write(report, to: URL(fileURLWithPath: reportDir))
        print("report: \(written.html.path)")
        throw ExitCode(RunInterruption.requested ? .interrupted : .failed)
    }

    // MARK: - The user's own scenarios

    private func fromScenarios(_ signature: CrashSignature) throws {
        let candidates = try CommandFailure.usage { try ScenarioLoader.resolve(all: scenarios, in: nil) }
        for variant in try variants() {
            let choice = try TargetOptions.resolve(targetExec: target.targetExec, variant: variant)
            try choice.check(candidates)
            let options = RunOptions(target: choice, seed: nil, keepScratch: false)
            print("running \(candidates.count) scenario\(candidates.count == 1 ? "" : "s") on \(choice.name), "
                + "variant \(choice.variant), to find the ones that trap the same way…")
            let reports = SuiteRunner(options: options, command: "chaos reproduce --from-crash \(log)").run(candidates, jobs: jobs).cases
            let matches = reports.compactMap { report in report.trap.flatMap(signature.match).map { (report, $0) } }
                .enumerated().sorted { lhs, rhs in lhs.element.1 != rhs.element.1 ? lhs.element.1 > rhs.element.1 : lhs.offset < rhs.offset }
                .map(\.element)
            if !matches.isEmpty { return try rerun(matches, candidates: candidates, options: options) }
        }
        print("No scenario traps at that site or with that message.")
        print("Drop --scenarios to run the storage catalog and hunt for it, or write a scenario (docs/SCENARIOS.md).")
    }

    private func rerun(_ matches: [(report: CaseReport, match: CrashMatch)], candidates: [Scenario], options: RunOptions) throws {
        print("\(matches.count) scenario\(matches.count == 1 ? "" : "s") reproduce it, best first:")
        for (report, match) in matches {
            let trap = report.trap.map { " trap \($0.signalName)\($0.site.map { " at \($0)" } ?? "")" } ?? ""
            print("  \(report.scenario):\(trap) — \(match.reason)")
            print("    \(report.reproduce)")
        }
        print("running them again:")
        let ordered = matches.compactMap { match in candidates.first { $0.name == match.report.scenario } }
        let again = SuiteRunner(options: options, command: CommandLine.arguments.joined(separator: " "))
            .run(ordered) { RunConsole().event($0) }
        let written = try ReportSet.write(again, to: URL(fileURLWithPath: reportDir))
        print("report: \(written.html.path)")
        let status = again.exitStatus()
        throw ExitCode(status == .passed ? .failed : status)
    }
}
