/// The records an app makes by itself, for no action of the case: what a clean first
/// launch on an empty folder made (learned once per command: ``CleanLaunch``) and what
/// the target declares (``ChaosTarget/ownRecords``: keys, or prefixes ending in `*`).
/// GRDB's demo app fills an empty table with sample players at launch; a crash that
/// cut its own writes leaves a relaunch that makes them again. Such a record is not
/// evidence of anything, so the set check never counts it as unexpected.
package struct OwnRecords: Sendable, Equatable {
    /// Keys a clean first launch made.
    package var learned: Set<String> = []
    /// Keys, or prefixes ending in `*`, the target declares.
    package var declared: [String] = []

    package init(learned: Set<String> = [], declared: [String] = []) {
        self.learned = learned
        self.declared = declared
    }

    package var isEmpty: Bool { learned.isEmpty && declared.isEmpty }

    /// Whether the app makes `key` by itself.
    package func contains(_ key: String) -> Bool {
        learned.contains(key) || declared.contains { pattern in
            pattern.hasSuffix("*") ? key.hasPrefix(pattern.dropLast()) : key == pattern
        }
    }

    /// What to do about records no action explains, when the app may have made them:
    /// a clean launch's are learned already, so these came later or under new keys.
    package static func hint(for unexpected: [String]) -> String? {
        guard let first = unexpected.first else { return nil }
        let prefix = first.firstIndex(of: ":").map { String(first[...$0]) + "*" } ?? first
        return "no action of the case explains \(unexpected.count == 1 ? "this record" : "these records"), and a clean launch "
            + "does not make \(unexpected.count == 1 ? "it" : "them"): if the app makes such records by itself (at a later "
            + "launch, or under keys that change), declare them in its target: static var ownRecords = [\"\(prefix)\"]"
    }
}
