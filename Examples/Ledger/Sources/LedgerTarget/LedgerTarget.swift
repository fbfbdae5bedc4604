import ChaosTarget
import LedgerCore

/// The ledger example's Chaos target: a store on sqlite-nio, whose own copy of SQLite
/// (every symbol renamed `sqlite_nio_sqlite3_*`) is named here, in one line, so the fault
/// VFS is installed into it. `--variant fragile` starts the app as Xcode's templates do;
/// `fixed` as `chaos check` taught it to.
@main
final class LedgerTarget: ChaosTarget {
    /// The ledger and its last good copy: a fault may aim at either.
    static let files = ["store": "ledger.sqlite", "copy": "ledger.sqlite.last-good"]
    static let variants = ["fixed", "fragile"]
    static let sqlite = [SQLiteLibrary.sqliteNIO]
    static let workload: Workload? = Workload(write: "ledger.add", read: "ledger.list")
    static let actions: [TargetAction<LedgerTarget>] = [
        TargetAction("ledger.add", parameters: [.int("amount", in: -1_000_000...1_000_000)]) { target, call in
            let amount = try call.int("amount", default: 1, in: -1_000_000...1_000_000)
            call.acknowledge(try await target.launched(target.ledger).add(amount: amount), in: "entry")
            return .done()
        },
        TargetAction("ledger.list", parameters: []) { target, _ in .read(.int(try await target.ledger?.all().count ?? 0)) },
    ]

    private let context: TargetContext
    private var ledger: (any Ledger)?

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        let path = context.path("ledger.sqlite")
        do {
            ledger = context.variant == "fragile" ? await FragileLedger.open(at: path) : try await FixedLedger.open(at: path)
            return .warning(ledger?.notice, mode: .restoredFromBackup)
        } catch {
            return .unavailable(error.message)
        }
    }

    func snapshot() async throws -> [String: [String: String]] { .records("entry", (try? await ledger?.all()) ?? []) }

    func stop() async { await ledger?.close() }
}
