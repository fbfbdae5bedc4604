/// The records an app makes by itself, for no action of the case: what a clean first
/// launch on an empty folder made (learned once per command: ``CleanLaunch``) — by key,
/// or by table and row when the keys are new at each launch (Fluent's seed migrations
/// insert the same rows under fresh UUIDs) — and what the target declares
/// (``ChaosTarget/ownRecords``: keys, or prefixes ending in `*`). A case that puts a
/// store of its own in place (`replace-file`) learns what a clean launch on it shows
/// too: those records are the store's, brought by no action (``CleanLaunch``).
/// GRDB's demo app fills an empty table with sample players at launch; a crash that
/// cut its own writes leaves a relaunch that makes them again. Such a record is not
/// evidence of anything, so the set check never counts it as unexpected.
package struct OwnRecords: Sendable, Equatable {
    /// Keys a clean first launch made.
    package var learned: Set<String> = []
    /// The rows a clean first launch made, by table: table → row texts.
    package var learnedRows: [String: Set<String>] = [:]
    /// Keys, or prefixes ending in `*`, the target declares.
    package var declared: [String] = []

    package init(learned: Set<String> = [], learnedRows: [String: Set<String>] = [:], declared: [String] = []) {
        self.learned = learned
        self.learnedRows = learnedRows
        self.declared = declared
    }

    /// What a clean launch left: its keys and its rows.
    package init(cleanLaunch snapshot: [String: [String: String]]) {
        learned = Set(snapshot.values.flatMap(\.keys))
        learnedRows = snapshot.mapValues { Set($0.values) }
    }

    package var isEmpty: Bool { learned.isEmpty && learnedRows.isEmpty && declared.isEmpty }

    /// Whether the app makes `key` by itself, by its key alone.
    package func contains(_ key: String) -> Bool {
        learned.contains(key) || declared.contains { pattern in
            pattern.hasSuffix("*") ? key.hasPrefix(pattern.dropLast()) : key == pattern
        }
    }

    /// Whether the app makes the record `key` of `snapshot` by itself: by its key, or
    /// because a clean launch made the very same row in the same table.
    package func contains(_ key: String, in snapshot: [String: [String: String]]) -> Bool {
        contains(key) || snapshot.contains { table, records in
            records[key].map { learnedRows[table]?.contains($0) == true } ?? false
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
