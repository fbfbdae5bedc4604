import ChaosTarget

/// Why acknowledged records were lost, where the evidence names a cause a user can fix:
/// said beside the loss (``line``), with the one-line change that removes it.
///
/// ```json
/// "lossCause" : { "syncedNothing" : { "writes" : 3 } }
/// ```
package enum LossCause: Codable, Sendable, Equatable {
    /// The seam saw writes and no sync up to the app's last answer before the cut.
    case syncedNothing(writes: Int)
    /// The store ran with settings under which SQLite documents that commits may roll
    /// back after a power loss.
    case commitsMayRollBack(wal: Bool, synchronous: String?)

    /// The cause the evidence shows, or nil when it shows none.
    static func named(by evidence: CaseEvidence) -> LossCause? {
        guard evidence.powerWentOut else { return nil }
        if let writes = evidence.writesBeforeCut, writes > 0, evidence.syncsBeforeCut == 0, evidence.storeSettings == nil {
            // Measured, not guessed: the seam counted the run's writes and syncs up to its last answer.
            return .syncedNothing(writes: writes)
        }
        guard let settings = evidence.storeSettings, settings.commitsMayRollBack else { return nil }
        return .commitsMayRollBack(wal: settings.wal == true, synchronous: settings.synchronous)
    }

    /// The cause as an expectation's detail says it: `cause: the app synced nothing…`.
    var line: String { "cause: " + sentence }

    /// The cause in words, with its fix.
    package var sentence: String {
        switch self {
        case let .syncedNothing(writes):
            return "the app synced nothing before the cut — up to its last answer in the run the power cut ended, "
                + "the seam saw \(writes) write\(writes == 1 ? "" : "s") and no fsync or fdatasync, and writes that are not "
                + "synced are not on the disk. Sync each file once written (fsync), and its folder once a name in it is made, "
                + "renamed or removed."
        case let .commitsMayRollBack(wal, synchronous):
            let journal = wal ? "journal_mode=WAL and synchronous=\((synchronous ?? "?").uppercased())" : "synchronous=OFF"
            let why = wal
                ? "in WAL mode below FULL a commit is not synced to the disk, and SQLite documents that it may roll back after a power loss"
                : "with synchronous=OFF SQLite does not sync at all, and documents that a power loss may lose commits or damage the database"
            return "the store ran with \(journal) at the cut: \(why) (https://www.sqlite.org/pragma.html#pragma_synchronous). "
                + "The fix is one line once the store is open: `PRAGMA synchronous = FULL` "
                + "(GRDB's DatabasePool sets NORMAL in WAL mode: run it after the pool is made, e.g. in a barrier write)."
        }
    }
}
