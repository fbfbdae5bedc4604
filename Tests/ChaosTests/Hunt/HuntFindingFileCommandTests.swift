import Chaos
import Foundation
import Testing

/// What a user does with a finding a budget cut short: `chaos hunt --shrink FILE` reads
/// it back, shrinks it on and writes it again in place, now saying it is minimal. And
/// one `fatalError` site holding several causes (Xcode's start-up template) gives one
/// finding per cause.
@Suite(.serialized) struct HuntFindingFileCommandTests {
    /// A trap at the legacy store's launch behind steps that play no part.
    static let unshrunk = """
        # Found by chaos hunt: trap at LegacyStore.swift:18: Failed to load store: SQLite error 10: disk I/O error.
        # cut short: shrinking stopped with 7 steps not yet tried for removal.
        name: trap-legacy-store-18-disk-i-o-error
        summary: "Found by chaos hunt (seed 1, schedule 6, shrunk from 9 to 9 steps): the app traps at LegacyStore.swift:18."
        system: settings
        seed: 498699
        timeout: 20s
        steps:
          - launch
          - do: favorites.add
            with: { count: 2 }
          - fault: clock-jump
            by: "+1h"
          - stop
          - fault: io-error
            op: "read"
            times: 3
          - launch
          - do: workload.read
        expect:
          - no-trap
          - no-silent-loss
          - integrity: ok-if-used
          - recovered-within: 5s

        """

    @Test func shrinkGoesOnFromAFileAndWritesItAgainMinimal() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("trap-legacy-store-18-disk-i-o-error.yaml")
        try Data(Self.unshrunk.utf8).write(to: file)
        let result = try ChaosExecutable.run(["hunt", "--shrink", file.path, "--variant", "legacy", "-j", "2", "--budget", "2m",
                                              "--report-dir", folder.url.appendingPathComponent("reports").path], timeout: .seconds(200))
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("# minimal: no step can be removed"), "\(text)")
        #expect(text.contains("shrunk from 7 to 2 steps"), "\(text)")
        #expect(text.contains("steps:\n  - fault: io-error\n    op: \"read\"\n  - launch\nexpect:"), "a trap needs no closing read: \(text)")
        #expect(result.stdout.contains("✘ trap at LegacyStore.swift:18: Failed to load store: SQLite error 10: disk I/O error"), "\(result.stdout)")
    }

    @Test func aFileThatNoLongerFailsIsLeftAsItIs() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("quiet.yaml")
        let text = Self.unshrunk.replacingOccurrences(of: "name: trap-legacy-store-18-disk-i-o-error", with: "name: quiet")
        try Data(text.utf8).write(to: file)
        let result = try ChaosExecutable.run(["hunt", "--shrink", file.path, "--report-dir", folder.url.appendingPathComponent("reports").path],
                                             timeout: .seconds(120))
        #expect(result.exitCode == 0, "the hardened app does not trap: \(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("does not fail any more"))
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }

    /// Xcode's template ends every start-up error in one `fatalError`: a full disk, an
    /// I/O error and a file that will not open are findings of their own at that line.
    @Test func oneFatalErrorSiteGivesOneFindingPerCause() throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(["hunt", "--target-exec", ChaosExecutable.built("chaos-example-journal"), "--variant", "template",
                                              "--seed", "1", "--schedules", "24", "-j", "2", "--report-dir", folder.url.path],
                                             timeout: .seconds(300))
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        let atTheTemplate = (report.hunt?.findings ?? []).filter { $0.failure.hasPrefix("trap at TemplateStartup.swift:13: ") }
        let kinds = Set(atTheTemplate.map(\.failure))
        #expect(kinds.count >= 3, "\(report.hunt?.findings.map(\.failure) ?? [])")
        #expect(kinds.contains { $0.contains("SQLite error 13: database or disk is full") })
        #expect(Set(atTheTemplate.map(\.name)).count == atTheTemplate.count, "each its own file")
        for finding in atTheTemplate {
            #expect(finding.reproduced && !finding.cutShort, "\(finding.failure): \(finding.yaml)")
        }
    }
}
