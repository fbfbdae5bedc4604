import ChaosTarget

/// The journal example's Chaos target. `--variant template` starts the app the way
/// Xcode's templates do; `--variant careful` the way `chaos check` taught it to;
/// `--variant demo` starts carefully and, like GRDB's demo app, fills an empty journal
/// with sample entries: records the app makes by itself, which Chaos learns from a clean
/// launch and never counts as unexpected.
@main
final class JournalTarget: ChaosTarget {
    /// The journal and its last good copy: a fault may aim at either.
    static let files = ["store": "journal.sqlite", "copy": "journal.sqlite.last-good"]
    /// The journal's widget shows today's entry: the store is in the app group it shares.
    static let sharedContainer = ["store"]
    static let variants = ["careful", "template", "demo"]
    /// The store the first release left (migration v1, no `mood` column): `chaos check`
    /// migrates it plainly and on a full disk (fixtures/make-journal-v1.py wrote it).
    static let workload: Workload? = Workload(write: "journal.write", read: "journal.read", olderStores: [
        OlderStore("v1", path: "../fixtures/journal-v1.sqlite", besides: #filePath, records: 12),
    ])
    static let actions: [TargetAction<JournalTarget>] = [
        TargetAction("journal.write") { target, call in
            guard let id = try target.journal?.write("Dear diary") else { return .failed(nil) }
            call.acknowledge("entry:\(id)")
            return .done()
        },
        TargetAction("journal.read") { target, _ in .read(.int(try target.journal?.entries().count ?? 0)) },
    ]

    private let context: TargetContext
    private var journal: Journal?

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        let journal = Journal(variant: context.variant, path: context.path("journal.sqlite"))
        self.journal = journal
        if journal.database == nil { return .unavailable(journal.notice) }
        return journal.readOnly ? Health(mode: .readOnly, severity: .warning, message: journal.notice)
            : .warning(journal.notice, mode: .restoredFromBackup)
    }

    func snapshot() async throws -> [String: [String: String]] {
        .records("entry", try journal?.database?.entries() ?? [], id: { $0.id })
    }

    func stop() async { journal?.close() }

    /// The app goes to the background, and comes back (``JournalSuspension``).
    nonisolated func willSuspend() { JournalSuspension.post(.willSuspend, variant: context.variant) }
    nonisolated func didResume() { JournalSuspension.post(.didResume, variant: context.variant) }
}
