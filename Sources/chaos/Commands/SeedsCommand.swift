import ArgumentParser
import Chaos
import Foundation
import ReferenceTarget

/// `chaos seeds`: docs/SEEDS.md, written from the seed map and the verdicts of every
/// scenario it names, run on both variants of the built-in app.
struct SeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seeds",
        abstract: "Write what each seed document asks, the scenarios that show it, and their verdicts.",
        discussion: """
        Runs every catalog scenario the seed map (Sources/Scenarios/seeds.yaml) names, on the \
        hardened app and on the legacy one, and writes the Markdown table of docs/SEEDS.md. \
        A requirement with no scenario, or naming one the catalog does not have, is refused \
        before anything runs.

        Examples:
          chaos seeds --output docs/SEEDS.md -j 2
          chaos seeds | less
        """)

    @Option(help: "Write the Markdown to this file (default: standard output).")
    var output: String?

    @Option(name: [.customShort("j"), .long], help: "Run this many cases at once.")
    var jobs: Int = 1

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("-j takes 1 to 64, found \(jobs)") }
    }

    func run() throws {
        RunInterruption.install()
        let map = try CommandFailure.usage { try SeedMap.bundled() }
        let target = try TargetOptions.resolve(targetExec: nil, variant: nil)
        let catalog = try CommandFailure.usage { try target.catalog?.scenarios() ?? [] }
        let problems = map.problems(catalog: Set(catalog.map(\.name)))
        guard problems.isEmpty else {
            throw CommandFailure("the seed map does not hold:\n" + problems.map { "  \($0)" }.joined(separator: "\n"), .usage)
        }
        let chosen = map.scenarioNames.compactMap { name in catalog.first { $0.name == name } }
        var verdicts: [String: SeedsDocument.Verdicts] = [:]
        for variant in SeedsDocument.variants {
            let target = try TargetOptions.resolve(targetExec: nil, variant: variant)
            printError("running \(chosen.count) scenarios on \(variant)…")
            let report = SuiteRunner(options: RunOptions(target: target, seed: nil, keepScratch: false),
                                     command: CommandLine.arguments.joined(separator: " ")).run(chosen, jobs: jobs)
            guard !report.cases.contains(where: { $0.verdict == .interrupted }) else { throw CommandFailure("interrupted", .interrupted) }
            for report in report.cases {
                var entry = verdicts[report.scenario] ?? SeedsDocument.Verdicts(hardened: nil, legacy: nil)
                let verdict = SeedsDocument.Verdict(passed: report.verdict == .passed, deviated: report.verdict == .deviated,
                                                    text: report.verdictInBrief)
                if variant == SeedsDocument.variants[0] { entry.hardened = verdict } else { entry.legacy = verdict }
                verdicts[report.scenario] = entry
            }
        }
        let markdown = SeedsDocument.markdown(map, verdicts: verdicts, seed: nil)
        if let output {
            do {
                try markdown.write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                throw CommandFailure("cannot write \(output): \(error.localizedDescription)", .harnessError)
            }
            printError("wrote \(output): \(map.requirements.count) requirements, \(chosen.count) scenarios")
        } else {
            print(markdown, terminator: "")
        }
    }
}
