@testable import Chaos
@testable import ChaosTarget
import Foundation
import Testing

/// A finding's file: its comments say it is minimal (or how far shrinking got), how often
/// it fails and what happened, in lines broken between words; and it reads back as the
/// schedule it was written from, so `chaos hunt --shrink FILE` goes on from it.
@Suite struct FindingFileTests {
    static let schedule = HuntSchedule(index: 4, seed: 321, system: "favorites", steps: [
        .fault("io-error", [HuntKey("op", .string("read")), HuntKey("after", .int(2))]), .launch,
        .action("favorites.add", [HuntKey("count", .int(3)), HuntKey("name", .string("Zoë “Q” \"x\""))]),
        .powerLoss("torn", HuntKey("after-writes", .int(4))), .kill, .clear("io-error"), .launch, HuntSchedule.closingRead,
    ])

    static func finding(cutShort: Bool, flaky: Bool) -> HuntFinding {
        var finding = HuntFinding(name: "trap-x-1", file: "reports/found/trap-x-1.yaml", failure: "trap at X.swift:1: Index out of range",
                                  schedule: 4, failingSchedules: 2, stepsBefore: 20, stepsAfter: 8, shrinkRuns: 30, shrinkMs: 900,
                                  cutShort: cutShort, reproduced: true, reproduce: "chaos run reports/found/trap-x-1.yaml", yaml: "")
        finding.untriedSteps = cutShort ? 3 : nil
        finding.reproducedRuns = flaky ? 2 : 3
        finding.reproduceTries = flaky ? 5 : 3
        finding.flaky = flaky
        finding.explanation = String(repeating: "A fault fired and the app did something rather long to say. ", count: 4)
            + "integrity_check now fails: *** in database main ***\nPage 14: free space corruption"
        return finding
    }

    @Test func theHeaderSaysMinimalOrHowFarAndNeverBreaksAWord() {
        let minimal = FindingFile.header(Self.finding(cutShort: false, flaky: false), before: .always)
        #expect(minimal.contains("# " + FindingFile.minimalMark.prefix(20)))
        #expect(minimal.contains("fails: 3 of 3 runs from this file."))
        let cut = FindingFile.header(Self.finding(cutShort: true, flaky: true), before: HuntShrinker.Rate(failed: 3, tries: 5))
        #expect(cut.contains("cut short: shrinking stopped with 3 steps not yet tried for removal"))
        #expect(cut.contains("--shrink reports/found/trap-x-1.yaml"))
        #expect(cut.contains("2 of 5 runs (flaky)") && cut.contains("the first schedule failed 3 of 5 times"))
        for line in (minimal + cut).split(separator: "\n") {
            #expect(line.hasPrefix("# ") && line.count <= 90, "\(line)")
            #expect(!line.hasSuffix(" "))
        }
        let words = Set(Self.finding(cutShort: false, flaky: false).explanation?.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) ?? [])
        let written = Set(minimal.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "#" }).map(String.init))
        #expect(words.isSubset(of: written), "every word of the explanation is there whole")
    }

    @Test func aFindingsFileReadsBackAsItsSchedule() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("trap-x-1.yaml")
        let text = FindingFile.header(Self.finding(cutShort: true, flaky: false), before: .always)
            + Self.schedule.yaml(name: "trap-x-1", summary: "Found by chaos hunt (seed 1, schedule 4, shrunk from 20 to 8 steps): x.")
        try Data(text.utf8).write(to: url)
        let read = try HuntSchedule(findingFile: url)
        #expect(read.steps == Self.schedule.steps)
        #expect(read.seed == 321 && read.system == "favorites")
        #expect(FindingWriter.wroteByHunt(text), "a finding with its comments is still recognised as a hunt's")
    }

    @Test func aScenarioAHuntNeverWritesIsRefusedByItsLine() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("mine.yaml")
        try Data("name: mine\nsummary: mine\nsystem: favorites\nsteps:\n  - launch\n  - checkpoint: before\n  - do: favorites.list\nexpect:\n  - no-trap\n".utf8).write(to: url)
        #expect {
            try HuntSchedule(findingFile: url)
        } throws: { error in
            (error as? ScenarioError).map { $0.line == 6 && $0.message.contains("not one a hunt writes") } ?? false
        }
    }
}
