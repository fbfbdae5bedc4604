@testable import Chaos
@testable import ChaosTarget
import Foundation
import Testing

/// No decision reads Chaos's own words. Every sentence of a case's report — what an
/// expectation expected and saw and its detail, a step's label and detail, the case's
/// error, a fault's label and measured effect, an injection's detail, the summary — is
/// rewritten, as a translation would, and every decision made from the report stays the
/// same: the case's verdict, the hunt's failure (what findings are grouped by, whether it
/// came at a step, what a hang struck), the faults at work, the step a hang struck and
/// the bounds learnt from the steps that answered, the sweep's tallies, and what a
/// guided hunt's signature holds. The app's own words (a trap's message, a record's
/// value, what it logged) are the app's, and stay.
@Suite struct NoDecisionReadsWordsTests {
    /// The keys of a report's JSON whose string values are Chaos's prose.
    static let prose: Set<String> = ["observed", "expected", "detail", "label", "error", "effect", "summary", "explanation", "reproduce"]

    /// Two rewordings: each sentence's words reversed and upper-cased (a language with
    /// another word order), and every sentence the same word (one that says nothing).
    static let rewordings: [@Sendable (String) -> String] = [
        { $0.split(separator: " ").reversed().joined(separator: " ").uppercased() + " ⟲" },
        { _ in "·" },
    ]

    static func reworded(_ report: CaseReport, with reword: @Sendable (String) -> String) throws -> CaseReport {
        func walk(_ value: Any, key: String?) -> Any {
            switch value {
            case let object as [String: Any]: return object.reduce(into: [String: Any]()) { $0[$1.key] = walk($1.value, key: $1.key) }
            case let array as [Any]: return array.map { walk($0, key: key) }
            case let text as String where key.map(prose.contains) == true: return reword(text)
            default: return value
            }
        }
        let tree = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report))
        return try JSONDecoder().decode(CaseReport.self, from: JSONSerialization.data(withJSONObject: walk(tree, key: nil)))
    }

    /// Everything a campaign or a judgement decides from one report.
    struct Decisions: Equatable {
        var failure: HuntOracle.Failure?
        var struckLaunch: Bool?
        var atAStep: Bool?
        var causes: [String]
        var hungStep: Int?
        var slowest: [Int]
        var tallies: [String]
        var notReached: [Bool]
        var lacksSnapshot: [Bool]
        var verdict: Verdict
        /// What a guided hunt keeps a schedule for.
        var signature: Set<RunSignature.Feature>

        init(_ report: CaseReport, steps: [WrittenStep]) {
            signature = RunSignature(report: report, steps: steps, files: ["store": "app.sqlite", "backups": "backups"]).features
            failure = HuntOracle.failure(of: report, steps: steps, remotes: ["postgres"])
            struckLaunch = failure?.struckLaunch
            atAStep = failure?.isAtAStep
            causes = FaultsAtWork(report: report, steps: steps, remotes: ["postgres"]).causes.map(\.phrase)
            hungStep = HuntShrinker.hungStep(of: report)
            let slowest = FindingShrinker.slowestAnswers(in: report, steps: steps)
            self.slowest = [slowest.launchMs, slowest.actionMs]
            tallies = SweepTally.kinds(of: report)
            notReached = report.expectations.map(\.wasNotReached)
            lacksSnapshot = report.expectations.map(\.lacksFinalSnapshot)
            var evidence = CaseEvidence()
            evidence.finalSnapshot = report.expectations.contains(where: \.lacksFinalSnapshot) ? nil : [:]
            verdict = CaseJudgement.judge(ending: nil, results: { report.expectations }, needsFinalSnapshot: true,
                                          evidence: evidence, faults: report.faults ?? []).verdict
        }
    }

    /// Reports of every kind of end, as the runner makes them: a hang at a step and at the
    /// relaunch, an exit, a loss with its cause, the evidence a trap or a missing snapshot
    /// kept from being judged.
    static func madeReports() -> [(CaseReport, [WrittenStep])] {
        let hangSteps = HuntOracleTests.hangSteps
        let faults = [HuntOracleTests.activity(2, "blackhole", fired: 3), HuntOracleTests.activity(4, "clock-jump")]
        var hang = ReportSample.hung(HuntOracleTests.report(failing: "no-trap", last: 5, faults: faults), during: "orders.list")
        hang.steps[4].detail = hang.expectations[0].observed
        var atRelaunch = HuntOracleTests.report(failing: "no-trap", end: .hung(.init(during: "launch")), last: 3, faults: [faults[0]])
        atRelaunch.steps[2].outcome = .ok
        let exit = HuntOracleTests.report(failing: "no-trap", end: .exited(termination: "exited(3)", during: "orders.add"), last: 3, faults: [])
        var loss = HuntOracleTests.report(failing: "no-silent-loss", observed: "1 of 3 acknowledged records lost, and nothing shown to the user",
                                          last: 4, faults: [faults[0]])
        loss.expectations[0].lossCause = .syncedNothing(writes: 3)
        loss.expectations[0].detail = LossCause.syncedNothing(writes: 3).line
        var gaps = ReportSample.deviated
        var notReached = ExpectationResult(kind: "fallback", label: "fallback: in-memory", passed: false, expected: "mode in-memory",
                                           observed: "no health reported", detail: MissingEvidence.notReached(.trapped).text)
        notReached.gap = EvidenceGap(appEnd: .trapped)
        var noSnapshot = ExpectationResult(kind: "preserved", label: "preserved: acknowledged", passed: false,
                                           expected: "every acknowledged write present", observed: ExpectationResult.noFinalSnapshot)
        noSnapshot.gap = EvidenceGap(finalSnapshot: true, appEnd: .trapped)
        gaps.expectations += [notReached, noSnapshot]
        return [(hang, hangSteps), (atRelaunch, [.launch, .fault("blackhole", []), .stop]), (exit, Array(hangSteps.prefix(3))),
                (loss, Array(hangSteps.prefix(4))), (gaps, [])]
    }

    @Test func rewordingTheReportsChangesNoDecision() throws {
        for (report, steps) in Self.madeReports() {
            let before = Decisions(report, steps: steps)
            for reword in Self.rewordings {
                let reworded = try Self.reworded(report, with: reword)
                #expect(reworded.expectations.map(\.observed) != report.expectations.map(\.observed), "the words did change")
                #expect(Decisions(reworded, steps: steps) == before, "\(report.expectations.map(\.observed))")
            }
        }
    }

    /// The same of real cases of the legacy app: a trap, a loss, a hang's or an end's
    /// evidence as the runner wrote it.
    @Test func rewordingRealReportsChangesNoDecision() throws {
        let names = ["corrupted-db", "disk-full-on-save", "first-set-emptied-after-power-cut", "family-remote-blackhole", "fsync-fails-on-commit"]
        let (_, cases) = try ChaosExecutable.runScenarios(names, variant: "legacy")
        #expect(cases.count == names.count)
        for report in cases.values {
            let before = Decisions(report, steps: [])
            #expect(before.failure != nil, "\(report.scenario) fails the hunt's oracle on legacy")
            for reword in Self.rewordings {
                #expect(Decisions(try Self.reworded(report, with: reword), steps: []) == before, "\(report.scenario)")
            }
        }
    }

    /// What the words are made in and read by: the renderers. Anywhere else in the
    /// controller, a `hasPrefix`, `contains` or `==` on a report's or an expectation's
    /// words is a decision made by reading them.
    static let renderers: Set<String> = [
        "HTMLReportWriter.swift", "HTMLTimeline.swift", "JUnitReportWriter.swift", "FindingExplanation.swift",
        "FindingFile.swift", "HuntSummary.swift", "SweepSummary.swift", "TerminalText.swift",
    ]

    @Test func noSourceReadsAReportsWords() throws {
        let fields = "observed|expected|detail|label|error|effect|explanation|summary|reproduce"
        let patterns = try [
            #"\b(\#(fields))\??\)?\.(hasPrefix|hasSuffix|contains|range\(of|starts\(with)"#,
            #"\.(\#(fields))\s*(==|!=)\s*"#,
            #"(hasPrefix|hasSuffix|contains)\([^)]*\.(\#(fields))\b"#,
        ].map { try Regex($0) }
        var found: [String] = []
        let sources = SourceShapeTests.sourcesDirectory
        for folder in ["Chaos", "chaos"] {
            let root = sources.appendingPathComponent(folder)
            let files = (FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
                .filter { $0.pathExtension == "swift" && !Self.renderers.contains($0.lastPathComponent) }
            #expect(files.count > 10, "the sources were found under \(root.path)")
            for file in files {
                for (number, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && patterns.contains(where: { line.contains($0) }) {
                    found.append("\(folder)/\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
