import ChaosTarget
import Foundation

/// `chaos reproduce --from-crash`: the cases that trap the way a crash log says — at its
/// site, or with its `Fatal error` message — found among the catalogs that fit a target
/// (its own, and the storage catalog as `chaos check` builds it for its declaration) or
/// among scenarios the user names; failing those, a hunt aimed at the crash (``HuntAim``:
/// its message's words and its frames' names weigh the draws). The command says what it
/// found and ends the process; this decides what to run and what matched.
package struct CrashCampaign: Sendable {
    /// A case whose trap matched, and how well.
    package typealias Match = (report: CaseReport, match: CrashMatch)

    package var signature: CrashSignature
    /// The lines of the log that name a Swift file: what the aimed hunt leans on.
    package var frames: [String]
    /// The command the cases' runs are said to come from.
    package var command: String
    package var jobs: Int

    package init(log text: String, command: String, jobs: Int) {
        signature = CrashSignature(log: text)
        frames = text.split(separator: "\n").map(String.init).filter { $0.contains(".swift") }
        self.command = command
        self.jobs = jobs
    }

    /// A match that counts: at the log's site when it names one (a runtime message such
    /// as "Unexpectedly found nil…" at another line is another crash).
    package func isAtTheSite(_ match: CrashMatch) -> Bool { signature.site == nil || match != .message }

    /// The cases of the catalogs that fit `choice`, run on it, whose trap matches, best
    /// first; `say` hears what is about to run.
    package func fromCatalogs(_ choice: TargetSelection, say: (String) -> Void) throws(ScenarioError) -> [Match] {
        let options = RunOptions(target: choice, seed: nil, keepScratch: false)
        var cases: [CaseReport] = []
        if let own = try choice.catalog?.scenarios() {
            say("running \(choice.name)'s own \(own.count) scenarios, variant \(choice.variant)…")
            cases += SuiteRunner(options: options, command: command).run(own, jobs: jobs).cases
        }
        // Its own catalog found it at its site: the storage catalog need not run.
        if !ranked(cases).contains(where: { isAtTheSite($0.match) }), choice.declaration.workload != nil {
            let catalog = try CheckCatalog.scenarios(for: choice.declaration).filter { CheckCatalog.applies($0, to: choice.declaration) }
            say("running the storage catalog (\(StorageCheck.caseNames(of: catalog).count) cases, as chaos check) on \(choice.name), "
                + "variant \(choice.variant)…")
            var check = StorageCheck(catalog: catalog, options: options, command: command)
            check.jobs = jobs
            cases += check.run().cases
        }
        return ranked(cases)
    }

    /// The cases of `scenarios`, run with `options`, whose trap matches, best first.
    package func fromScenarios(_ scenarios: [Scenario], options: RunOptions) -> [Match] {
        ranked(SuiteRunner(options: options, command: command).run(scenarios, jobs: jobs).cases)
    }

    /// A hunt on `choice` within `budget` that is a finding only where a schedule traps
    /// the way the log says, its findings written to `foundPath`.
    package func aimedHunter(_ choice: TargetSelection, budget: Duration, foundPath: String) -> Hunter {
        var hunter = Hunter(options: RunOptions(target: choice, seed: nil, keepScratch: false), seed: signature.huntSeed,
                            foundDirectory: URL(fileURLWithPath: foundPath), foundPath: foundPath)
        hunter.budget = budget
        hunter.jobs = jobs
        let lean = HuntAim(message: signature.message, frames: frames, actions: choice.declaration.actions)
        hunter.aim = (lean, { [self] trap in signature.match(trap).map(isAtTheSite) ?? false })
        return hunter
    }

    /// The reports whose trap matches, best first; among equals, the order they ran in.
    func ranked(_ reports: [CaseReport]) -> [Match] {
        let matched = reports.compactMap { report in report.trap.flatMap(signature.match).map { (report, $0) } }
        return matched.enumerated().sorted { lhs, rhs in
            lhs.element.1 != rhs.element.1 ? lhs.element.1 > rhs.element.1 : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
