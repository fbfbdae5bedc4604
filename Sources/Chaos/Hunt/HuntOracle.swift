import ChaosTarget
import Foundation

/// The generic oracle every schedule of a hunt is judged by — the storage catalog's:
/// no trap (nor a hang, nor an unexpected exit); no acknowledged record lost without the
/// user being told (a write cut before it answered may or may not be there); the store
/// intact, or no longer used; and, from the last launch after every fault is cleared, a
/// read within 5 s, with no launch or action of the case slower than that.
package enum HuntOracle {
    package static let expectations = ["no-trap", "no-silent-loss", "integrity: ok-if-used", "recovered-within: 5s"]

    /// The expectations of a schedule: all of them, but `no-silent-loss` for one that
    /// deletes or garbles a journal (`wal`, `journal`): the commits in it are gone with
    /// it for any app, as the storage catalog's `check-wal-lost` says.
    static func expectations(for steps: [HuntStep]) -> [String] {
        let losesJournal = steps.contains { step in
            guard case let .fault(kind, keys) = step, kind == "delete-file" || kind == "corrupt-file",
                  case let .string(file)? = keys.first(where: { $0.key == "file" })?.value else { return false }
            return journalFiles.contains(file)
        }
        return losesJournal ? expectations.filter { $0 != "no-silent-loss" } : expectations
    }

    /// The logical names of SQLite's journals.
    static let journalFiles: Set<String> = ["wal", "journal"]

    /// How a case failed, the same for every schedule that fails that way: what a finding
    /// is grouped by and what shrinking must keep.
    package struct Failure: Sendable, Hashable, Comparable, Codable {
        /// `trap at LegacyStore.swift:18`, `no-silent-loss`, `hang: …`.
        package var signature: String

        package static func < (lhs: Failure, rhs: Failure) -> Bool { lhs.signature < rhs.signature }

        /// A trap or a hang: a failure whatever the schedule's faults are doing at its end.
        var isTrapOrHang: Bool { signature.hasPrefix("trap") || signature.hasPrefix("no-trap") }

        /// A kebab-case name for the finding's file: `trap-legacy-store-18`, `fails-no-silent-loss`.
        package var name: String {
            var words: [String] = []
            var current = ""
            var previous: Character?
            for character in signature {
                let boundary = character.isUppercase && (previous?.isLowercase ?? false)
                if !character.isLetter && !character.isNumber || boundary {
                    if !current.isEmpty { words.append(current) }
                    current = ""
                }
                if character.isLetter || character.isNumber { current.append(contentsOf: character.lowercased()) }
                previous = character
            }
            if !current.isEmpty { words.append(current) }
            words.removeAll { $0 == "swift" || $0 == "at" }
            let name = words.prefix(8).joined(separator: "-").filter { $0.isASCII }
            let kebab = name.isEmpty ? "failure" : name
            return signature.hasPrefix("trap") || signature.hasPrefix("hang") ? kebab : "fails-" + kebab
        }
    }

    /// How `report` failed the oracle; nil when it passed, or proves nothing either way
    /// (inconclusive, skipped, errored: a fault that reached nothing, a case that did not
    /// apply, Chaos's own failure — none of them the app's).
    package static func failure(of report: CaseReport) -> Failure? {
        guard report.verdict == .deviated else { return nil }
        if let trap = report.trap {
            if let site = trap.site { return Failure(signature: "trap at \(site)") }
            return Failure(signature: "trap: " + plain(trap.message ?? trap.signalName))
        }
        let failed = report.expectations.filter { !$0.passed }
        if let noTrap = failed.first(where: { $0.kind == ExpectationKeyword.noTrap.rawValue }) {
            // A hang or an exit: its kind, not its timings.
            return Failure(signature: "no-trap: " + plain(noTrap.observed))
        }
        guard !failed.isEmpty else { return nil }
        return Failure(signature: failed.map(\.kind).sorted().joined(separator: ", "))
    }

    /// Text without the numbers that differ from run to run (ms, pids, counts), cut short.
    static func plain(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        let words = line.split(separator: " ").map { word in word.contains(where: \.isNumber) ? "N" : String(word) }
        return String(words.joined(separator: " ").prefix(80))
    }
}
