import ChaosTarget
import Foundation
import LedgerCore

/// The ledger example's Chaos target: a store on sqlite-nio, whose own copy of SQLite
/// (every symbol renamed `sqlite_nio_sqlite3_*`) is named here, in one line, so the fault
/// VFS is installed into it. `--variant fragile` starts the app as Xcode's templates do;
/// `fixed` as `chaos check` taught it to.
@main
final class LedgerTarget: ChaosTarget {
    static let files = ["store": "ledger.sqlite"]
    static let variants = ["fixed", "fragile"]
    static let sqlite = [SQLiteLibrary.sqliteNIO]
    static let workload: Workload? = Workload(write: "ledger.add", read: "ledger.list")
    static let actions: [TargetAction<LedgerTarget>] = [
        TargetAction("ledger.add", parameters: [.int("amount", in: -1_000_000...1_000_000)]) { target, call in
            try await target.add(call)
        },
        TargetAction("ledger.list", parameters: []) { target, _ in try await target.list() },
    ]

    private let context: TargetContext
    private var ledger: (any Ledger)?
    private var problem: String?
    private var lastError: String?

    init(context: TargetContext) { self.context = context }

    private var path: String { context.dataDirectory.appendingPathComponent("ledger.sqlite").path }

    func launch() async -> Health {
        try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        if context.variant == "fragile" {
            ledger = await FragileLedger.open(at: path)
        } else {
            do { ledger = try await FixedLedger.open(at: path) } catch { problem = error.message }
        }
        return health
    }

    var health: Health {
        guard let ledger else { return Health(mode: .inMemory, severity: .error, message: problem) }
        return ledger.notice.map { Health(mode: .restoredFromBackup, severity: .warning, message: $0) } ?? Health()
    }

    var surfaced: Surfaced {
        lastError.map(Surfaced.error) ?? (ledger?.notice).map(Surfaced.warning) ?? problem.map(Surfaced.error) ?? .nothing
    }

    private func add(_ call: ActionCall) async throws -> ActionResult {
        guard let ledger else { return .failed(problem) }
        do {
            let entry = try await ledger.add(amount: try call.int("amount", default: 1, in: -1_000_000...1_000_000))
            call.acknowledge("entry:\(entry.id)")
            lastError = nil
            return .done()
        } catch let error as LedgerProblem {
            lastError = error.message
            return .failed(error.message)
        }
    }

    private func list() async throws -> ActionResult {
        do {
            let entries = try await ledger?.all() ?? []
            lastError = nil
            return .read(.int(entries.count))
        } catch let error as LedgerProblem {
            lastError = error.message
            return .failed(error.message)
        }
    }

    func snapshot() async throws -> [String: [String: String]] {
        ["entry": Dictionary(uniqueKeysWithValues: ((try? await ledger?.all()) ?? []).map { ("entry:\($0.id)", "\($0.amount)") })]
    }

    func stop() async {
        await ledger?.close()
        ledger = nil
    }
}
