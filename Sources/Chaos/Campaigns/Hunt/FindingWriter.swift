import ChaosTarget
import Foundation

/// Writes a hunt's findings as `FOUND/NAME.yaml`: the shrunk schedule under comments
/// that say what it promises, named for its failure (made unique), then loaded back as
/// any scenario file is (so a file the format refuses is never handed out) and run from
/// that file (``HuntConfirmation``): its report is the finding's case, with the
/// reproduce line a user types.
struct FindingWriter {
    /// Judges the file's runs; they run as written, whatever its bound on a step.
    var runner: HuntRunner
    /// Where findings are written, and how reproduce lines name that folder.
    var directory: URL
    var path: String

    /// What a summary starts with: how a finding a hunt wrote is told from anyone's file.
    static let summaryPrefix = "Found by chaos hunt"

    /// A finding's file before it is written: its name, where it goes, its summary, and
    /// the scenario it holds.
    struct Draft {
        var name: String
        var path: String
        var url: URL
        var summary: String
        var plain: String
    }

    /// A written finding, the report of its file's run, its failure as the file shows
    /// it, and the runs that took.
    struct Written {
        var finding: HuntFinding
        var report: CaseReport
        var failure: HuntOracle.Failure
        var runs: Int
    }

    /// The file's name when a finding is written again (`--shrink`, a resumed shrink),
    /// and what its summary says of where it came from.
    typealias FixedName = (name: String, origin: String)

    /// Writes a shrunk failure and runs it from the file, `tries` times (fewer past `until`).
    ///
    /// A hang seen under the hunt's bound on one step that the file, run at the case's
    /// full timeout, shows as a slow answer instead (a connect that gives up after 10 s)
    /// is that failure: the finding is named and said as the file fails.
    func write(_ found: HuntOracle.Failure, from first: HuntSchedule, shrunk: HuntShrinker.Outcome, names: inout Set<String>,
               failing: Int, rate before: HuntShrinker.Rate, tries: Int = HuntConfirmation.triesAfter,
               until: ContinuousClock.Instant? = nil, fixedName: FixedName? = nil) throws(Hunter.Problem) -> Written {
        let started = ContinuousClock.now
        let confirmation = HuntConfirmation(runner: runner)
        var failure = found
        var shrunk = shrunk
        var file = draft(for: failure, from: first, shrunk: shrunk, names: &names, fixedName: fixedName)
        var runs = 0
        var report = shrunk.report
        var after = HuntShrinker.Rate(failed: 0, tries: 0)
        var measuredReports: [CaseReport] = []
        func measure() {
            guard let loaded = try? ScenarioLoader.load(yaml: file.plain, file: file.path, baseDirectory: nil) else { return }
            let measured = confirmation.rate(of: shrunk.schedule, failing: failure, alreadyFailed: 0, tries: tries, scenario: loaded, until: until)
            runs += measured.runs
            after = measured.rate
            measuredReports = measured.reports
            if let measuredReport = measured.report { report = measuredReport }
        }
        measure()
        HuntRunner.debug("finding \(failure.signature): \(after.text) from its file; the file's run: \(report.verdict) "
            + "\(report.expectations.filter { !$0.passed }.map(\.observed)) \(runner.judge(shrunk.schedule, report)?.signature ?? "no failure")")
        if failure.kind == .hang, after.failed == 0, let slow = runner.judge(shrunk.schedule, report), !failure.sameCore(slow) {
            // Slow, not hung: judged as such, its faults cleared at the end so that the app
            // relaunched to read what it kept is not judged through them.
            names.remove(file.name)
            let asItWas = shrunk.schedule.isWellFormed(for: slow)
            if !asItWas {
                shrunk.schedule.steps.append(.clear("all"))
                if let scenario = try? shrunk.schedule.scenario(name: file.name, summary: file.summary, file: file.path),
                   let again = confirmation.runFile(scenario, times: 1).first.flatMap({ $0 }) {
                    report = again
                    runs += 1
                }
            }
            failure = runner.judge(shrunk.schedule, report) ?? slow
            file = draft(for: failure, from: first, shrunk: shrunk, names: &names, fixedName: fixedName)
            if asItWas {
                // The same steps: the runs just made say how often it fails so (another
                // round of runs at the full timeout would cost a hang's 20 s again).
                after = HuntShrinker.Rate(failed: measuredReports.filter { failure.sameCore(runner.judge(shrunk.schedule, $0)) }.count,
                                          tries: measuredReports.count)
            } else {
                measure()
            }
        }
        report.scenario = file.name
        report.summary = file.summary
        report.explanation = FindingExplanation(report: report, failure: failure).text
        if after.failed == 0 {
            report.error = (report.error.map { $0 + "; " } ?? "") + "the written file, run again \(after.tries) times, never failed as the hunt "
                + "saw (\(failure.signature)): the failure depends on timing"
        }
        var finding = try save(failure, file: file, first: first, shrunk: shrunk, report: report, failing: failing, rates: (before, after))
        finding.confirmMs = (ContinuousClock.now - started).wholeMilliseconds
        return Written(finding: finding, report: report, failure: failure, runs: runs)
    }

    /// The finding of a written file, and the file itself: the scenario below the comments
    /// that say what it promises.
    func save(_ failure: HuntOracle.Failure, file: Draft, first: HuntSchedule, shrunk: HuntShrinker.Outcome, report: CaseReport,
              failing: Int, rates: (before: HuntShrinker.Rate, after: HuntShrinker.Rate)) throws(Hunter.Problem) -> HuntFinding {
        var finding = HuntFinding(
            name: file.name, file: file.path, failure: failure.signature, schedule: first.index, failingSchedules: failing,
            stepsBefore: first.steps.count, stepsAfter: shrunk.schedule.steps.count, shrinkRuns: shrunk.runs, shrinkMs: 0,
            cutShort: shrunk.cutShort, reproduced: rates.after.failed > 0, reproduce: report.reproduce, yaml: "")
        finding.untriedSteps = shrunk.cutShort ? shrunk.untriedSteps : nil
        finding.reproducedRuns = rates.after.failed
        finding.reproduceTries = rates.after.tries
        finding.flaky = !rates.after.isFull || !rates.before.isFull
        finding.explanation = report.explanation
        finding.yaml = FindingFile.header(finding, before: rates.before) + file.plain
        do {
            try Data(finding.yaml.utf8).write(to: file.url)
        } catch {
            throw .cannotWrite("cannot write \(file.path): \(error.localizedDescription)")
        }
        return finding
    }

    /// A finding's file: named for the failure (made unique among `names`) or `fixedName`.
    func draft(for failure: HuntOracle.Failure, from first: HuntSchedule, shrunk: HuntShrinker.Outcome, names: inout Set<String>,
               fixedName: FixedName?) -> Draft {
        var name = fixedName?.name ?? failure.name
        var suffix = 2
        while fixedName == nil, names.contains(name) {
            name = "\(failure.name)-\(suffix)"
            suffix += 1
        }
        names.insert(name)
        let filePath = (path.hasSuffix("/") ? path : path + "/") + name + ".yaml"
        let origin = fixedName?.origin ?? "seed \(runner.seed), schedule \(first.index)"
        let summary = "\(Self.summaryPrefix) (\(origin), shrunk from \(first.steps.count) to "
            + "\(shrunk.schedule.steps.count) steps): \(Self.describe(failure))."
        return Draft(name: name, path: filePath, url: url(of: name), summary: summary, plain: shrunk.schedule.yaml(name: name, summary: summary))
    }

    /// Where the finding named `name` is written.
    func url(of name: String) -> URL { directory.appendingPathComponent(name + ".yaml") }

    /// `the app traps at LegacyStore.swift:18: …`, `it fails no-silent-loss after a power cut`.
    static func describe(_ failure: HuntOracle.Failure) -> String {
        switch failure.kind {
        case .trap: "the app \(failure.core.replacingOccurrences(of: "trap", with: "traps", options: .anchored))"
        case .hang: "the app \(failure.core.replacingOccurrences(of: "hang", with: "hangs", options: .anchored))"
        case .exit: "the app ends unexpectedly (\(failure.core.dropFirst(6)))" + (failure.cause.map { " after \($0)" } ?? "")
        case .expectations: "it fails \(failure.signature)"
        }
    }

    /// Makes the findings' folder, and removes the findings an earlier hunt wrote there
    /// (recognised by their summary): a file of anyone else is never touched.
    static func prepare(_ directory: URL, path: String) throws(Hunter.Problem) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite("cannot make \(path) for the findings: \(error.localizedDescription)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix(".yaml") {
            let file = directory.appendingPathComponent(name)
            guard let text = try? String(contentsOf: file, encoding: .utf8), wroteByHunt(text) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Whether a scenario file's text is a finding a hunt wrote.
    static func wroteByHunt(_ text: String) -> Bool {
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("#") }
        return body.first?.hasPrefix("name: ") == true && text.contains("\nsummary: \"\(summaryPrefix)")
    }
}
