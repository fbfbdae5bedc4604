import ArgumentParser
import Chaos
import Foundation

/// `chaos reproduce --from-crash`: a crash log in; the scenarios whose run traps the same
/// way out, best match first, each run again.
///
/// The scenarios are the bundled catalog on the built-in app's legacy variant (the
/// code the crash reports of the seeds came from), or the user's own (`--scenarios`)
/// on their target: on `--variant` when given, else on each variant the target declares
/// until one matches.
struct CrashReproduction {
    var log: String
    var scenarios: [String]
    var target: TargetOptions
    var reportDir: String

    func run() throws {
        let text = try CommandFailure.usage { () throws -> String in
            guard let text = try? String(contentsOf: URL(fileURLWithPath: log), encoding: .utf8) else {
                throw CommandFailure("chaos: cannot read the crash log \(log)", .usage)
            }
            return text
        }
        let signature = CrashSignature(log: text)
        guard !signature.isEmpty else {
            print("The crash log has no Swift \"Fatal error\" line and no backtrace frame in project code: nothing to match.")
            throw CommandFailure("", .failed)
        }
        print("crash log: \(signature.message.map { "\"\($0)\"" } ?? "no message")\(signature.site.map { " at \($0)" } ?? "")")
        let candidates = try CommandFailure.usage { scenarios.isEmpty ? try ScenarioLoader.bundled() : try ScenarioLoader.resolve(all: scenarios) }
        for variant in try variants() {
            let choice = try TargetOptions.resolve(targetExec: target.targetExec, variant: variant)
            try choice.check(candidates)
            let options = RunOptions(target: choice, seed: nil, keepScratch: false)
            print("running \(candidates.count) scenario\(candidates.count == 1 ? "" : "s") on \(choice.name), "
                + "variant \(choice.variant), to find the ones that trap the same way…")
            let matches = findMatches(candidates, options: options, signature: signature)
            if !matches.isEmpty { return try rerun(matches, candidates: candidates, options: options) }
        }
        print("No \(scenarios.isEmpty ? "bundled " : "")scenario traps at that site or with that message.")
        print("Write a scenario for it (docs/SCENARIOS.md), or put the user's damaged database in place with replace-file.")
        throw CommandFailure("", .failed)
    }

    /// The variants to try: the one asked for; legacy for the built-in app; else every
    /// variant the target declares.
    private func variants() throws -> [String?] {
        if let variant = target.variant { return [variant] }
        guard target.targetExec != nil else { return ["legacy"] }
        let declared = try target.resolve().variants
        return declared.isEmpty ? [nil] : declared
    }

    private func findMatches(_ candidates: [Scenario], options: RunOptions, signature: CrashSignature)
        -> [(report: CaseReport, match: CrashMatch)] {
        let jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let reports = SuiteRunner(options: options, command: "chaos reproduce --from-crash \(log)").run(candidates, jobs: jobs).cases
        let matched = reports.compactMap { report in report.trap.flatMap(signature.match).map { (report, $0) } }
        // Best first; among equals, the order the scenarios were given.
        return matched.enumerated().sorted { lhs, rhs in
            lhs.element.1 != rhs.element.1 ? lhs.element.1 > rhs.element.1 : lhs.offset < rhs.offset
        }.map(\.element)
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
        // Found and reproduced: the crash is real, so the command does not say "all passed".
        let status = again.exitStatus()
        throw ExitCode(status == .passed ? .failed : status)
    }
}
