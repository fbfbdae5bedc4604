import ChaosTarget

/// Why acknowledged records were lost, where the evidence names a cause a user can fix:
/// said beside the loss, with the one-line change that removes it.
enum LossCause {
    /// How a cause begins in an expectation's detail, so a finding's explanation can say it.
    static let marker = "cause: "

    /// The cause the evidence shows, or nil when it shows none.
    static func named(by evidence: CaseEvidence) -> String? {
        guard evidence.powerWentOut else { return nil }
        if let writes = evidence.writesBeforeCut, writes > 0, evidence.syncsBeforeCut == 0, evidence.storeSettings == nil {
            // Measured, not guessed: the seam counted the run's writes and syncs up to its last answer.
            return marker + "the app synced nothing before the cut — up to its last answer in the run the power cut ended, "
                + "the seam saw \(writes) write\(writes == 1 ? "" : "s") and no fsync or fdatasync, and writes that are not "
                + "synced are not on the disk. Sync each file once written (fsync), and its folder once a name in it is made, "
                + "renamed or removed."
        }
        guard let settings = evidence.storeSettings, settings.commitsMayRollBack else { return nil }
        let journal = settings.wal == true ? "journal_mode=WAL and synchronous=\((settings.synchronous ?? "?").uppercased())"
            : "synchronous=OFF"
        let why = settings.wal == true
            ? "in WAL mode below FULL a commit is not synced to the disk, and SQLite documents that it may roll back after a power loss"
            : "with synchronous=OFF SQLite does not sync at all, and documents that a power loss may lose commits or damage the database"
        return marker + "the store ran with \(journal) at the cut: \(why) (https://www.sqlite.org/pragma.html#pragma_synchronous). "
            + "The fix is one line once the store is open: `PRAGMA synchronous = FULL` "
            + "(GRDB's DatabasePool sets NORMAL in WAL mode: run it after the pool is made, e.g. in a barrier write)."
    }
}
