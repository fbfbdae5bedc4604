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
}
