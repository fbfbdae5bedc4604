import ArgumentParser
import Chaos
import ChaosTarget
import Foundation
import ReferenceTarget

/// `chaos reproduce --from-crash`: a crash log in; a scenario that traps the same way
/// out — at the same site, or with the same `Fatal error` message. What runs and what
/// matched is the library's ``CrashCampaign``; this says it, writes the report and ends
/// the process: 1 when the crash was reproduced, 0 when it was not (no finding).
///
/// With `--scenarios`, the user's own scenarios are run on their target (on `--variant`
/// when given, else on each variant it declares) and the matches run again. Without, the
/// catalogs that fit the target run on each variant; when no case traps that way, a hunt
/// aimed at the crash runs within `--budget`, and the first schedule that traps the same
/// way is shrunk and written beside the report, with the `chaos run` line that reproduces it.
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
        let campaign = CrashCampaign(log: text, command: "chaos reproduce --from-crash \(log)", jobs: jobs)
        let signature = campaign.signature
        guard !signature.isEmpty else {
            // Input Chaos cannot use: bad usage, as a malformed scenario is.
            throw CommandFailure("chaos reproduce: the crash log has no Swift \"Fatal error\" line and no backtrace frame in "
                + "project code: nothing to match", .usage)
        }
        print("crash log: \(signature.message.map { "\"\($0)\"" } ?? "no message")\(signature.site.map { " at \($0)" } ?? "")")
        if !scenarios.isEmpty { return try fromScenarios(campaign) }
        let variants = try self.variants()
        var elsewhere: [CrashCampaign.Match] = []
        for variant in variants {
            let choice = try TargetOptions.resolve(targetExec: target.targetExec, variant: variant)
            let matches = try CommandFailure.usage { () throws -> [CrashCampaign.Match] in try campaign.fromCatalogs(choice) { print($0) } }
            let atTheSite = matches.filter { campaign.isAtTheSite($0.match) }
            if !atTheSite.isEmpty { return try found(atTheSite, on: choice) }
            elsewhere += matches
        }
        // No case of the catalogs traps that way: hunt for it, the budget shared by the variants.
        for (index, variant) in variants.enumerated() {
            let choice = try TargetOptions.resolve(targetExec: target.targetExec, variant: variant)
            let share = budget / (variants.count - index)
            if try aimedHunt(campaign, on: choice, budget: share) { return }
        }
        print("No catalog case, and no schedule hunted in \(ScenarioDuration.format(budget)), traps at \(signature.site ?? "that site or with that message").")
        for (report, _) in elsewhere {
            print("  \(report.scenario) traps with the same message at \(report.trap?.site ?? "another site"): \(report.reproduce)")
        }
        print("Hunt longer (--budget 10m), write a scenario for it (docs/SCENARIOS.md), or put the user's damaged database in "
            + "place with replace-file.")
        // Not reproduced is no finding: exit 0, as docs/HUNT.md says (1 is for a crash reproduced).
    }

    /// The variants to try: the one asked for; for the built-in app, the one its crash
    /// reports come from (``ReferenceApp/crashingVariant``); else every variant the target declares.
    private func variants() throws -> [String?] {
        if let variant = target.variant { return [variant] }
        guard target.targetExec != nil else { return [ReferenceApp.crashingVariant] }
        let declared = try target.resolve().variants
        return declared.isEmpty ? [nil] : declared
    }

    /// Says which cases reproduce the crash, with their run lines, and writes their report.
    private func found(_ matches: [CrashCampaign.Match], on choice: TargetSelection) throws {
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
    private func aimedHunt(_ campaign: CrashCampaign, on choice: TargetSelection, budget: Duration) throws -> Bool {
        guard choice.declaration.workload != nil else {
            print("\(choice.name) declares no workload: no hunt can be aimed at the crash (docs/TARGETS.md).")
            return false
        }
        let found = (reportDir.hasSuffix("/") ? reportDir : reportDir + "/") + "found"
        let hunter = campaign.aimedHunter(choice, budget: budget, foundPath: found)
        let (options, seed) = (RunOptions(target: choice, seed: nil, keepScratch: false), hunter.seed)
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

    private func fromScenarios(_ campaign: CrashCampaign) throws {
        let candidates = try CommandFailure.usage { try ScenarioLoader.resolve(all: scenarios, in: nil) }
        for variant in try variants() {
            let choice = try TargetOptions.resolve(targetExec: target.targetExec, variant: variant)
            try choice.check(candidates)
            let options = RunOptions(target: choice, seed: nil, keepScratch: false)
            print("running \(candidates.count) scenario\(candidates.count == 1 ? "" : "s") on \(choice.name), "
                + "variant \(choice.variant), to find the ones that trap the same way…")
            let matches = campaign.fromScenarios(candidates, options: options)
            if !matches.isEmpty { return try rerun(matches, candidates: candidates, options: options) }
        }
        print("No scenario traps at that site or with that message.")
        print("Drop --scenarios to run the storage catalog and hunt for it, or write a scenario (docs/SCENARIOS.md).")
    }

    private func rerun(_ matches: [CrashCampaign.Match], candidates: [Scenario], options: RunOptions) throws {
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
