/// docs/SEEDS.md: each requirement of each seed document, the scenarios that show it,
/// and their verdicts on the hardened app and on the legacy one (the seed's "before"
/// code). Written by `chaos seeds` from the seed map and a run of every scenario it
/// names on both variants; nothing in it is typed by hand, and nothing in it changes
/// from one run to the next unless a verdict does (no times, no paths).
package enum SeedsDocument {
    /// One scenario's verdict on one variant, as the document shows it.
    package struct Verdict: Sendable, Equatable {
        package var passed: Bool
        package var deviated: Bool
        /// `✔ passed`, `✘ trap at LegacyStore.swift:18`, `✘ preserved, surfaced`.
        package var text: String

        package init(passed: Bool, deviated: Bool, text: String) {
            self.passed = passed
            self.deviated = deviated
            self.text = text
        }
    }

    /// The verdicts of one scenario, one per variant.
    package struct Verdicts: Sendable {
        package var hardened: Verdict?
        package var legacy: Verdict?

        package init(hardened: Verdict?, legacy: Verdict?) {
            self.hardened = hardened
            self.legacy = legacy
        }
    }

    /// The variants the document runs every scenario on: the app as the seeds ask for
    /// it, and their "before" code.
    package static let variants = ["hardened", "legacy"]

    package static func markdown(_ map: SeedMap, verdicts: [String: Verdicts], seed: UInt64?) -> String {
        let names = map.scenarioNames
        let shownHardened = names.count { verdicts[$0]?.hardened?.passed == true }
        let caughtLegacy = names.count { verdicts[$0]?.legacy?.deviated == true }
        var text = """
            # What the seeds promise, and the scenarios that show it

            Written by `chaos seeds` (`make seeds`) from `Sources/Scenarios/seeds.yaml` and a run of every
            scenario it names on the hardened app and on the legacy one (the seed's "before" code), each at
            \(seed.map { "seed \($0)" } ?? "its own seed"). Do not edit by hand: change the map or a scenario, then run it again.
            A test fails when a requirement names no scenario, or one the catalog does not have.

            **\(map.requirements.count) requirements** of \(map.seeds.count) seed documents, shown by \(names.count) scenarios:
            \(shownHardened) of \(names.count) pass on the hardened app, \(caughtLegacy) of \(names.count) deviate on the legacy one
            (the rest are faults the old code survived too: it is not told apart by them).


            """
        for seed in map.seeds {
            text += "## \(seed.seed) — \(seed.title)\n\n"
            text += "`../shared/seeds/\(seed.file)` · system `\(seed.system)`\n\n"
            text += "| # | What the seed asks | Where | Shown by: hardened · legacy |\n|---|---|---|---|\n"
            for requirement in seed.requirements {
                // `-> String`: GRDB's `SQL` is a string literal too, and `[SQL]` joins as well.
                let shown = requirement.scenarios.map { name -> String in
                    let verdict = verdicts[name]
                    return "`\(name)`: \(verdict?.hardened?.text ?? "not run") · \(verdict?.legacy?.text ?? "not run")"
                }.joined(separator: "<br>")
                text += "| \(requirement.id) | \(cell(requirement.text)) | \(cell(requirement.where)) | \(shown) |\n"
            }
            if let leftOut = seed.leftOut, !leftOut.isEmpty {
                text += "\nNot shown by this port:\n\n"
                for item in leftOut { text += "- \(item.text): \(item.reason)\n" }
            }
            text += "\n"
        }
        return text
    }

    /// Text safe in a table cell.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
