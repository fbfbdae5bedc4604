import ChaosTarget
import Foundation
import TodosCore

/// The to-do example's Chaos target: a Codable JSON-file store, no SQLite at all, so
/// every storage fault and the power cut go through Chaos's libc seam.
/// `--variant fragile|atomic-write|retries-fsync|fixed` picks how the list is written.
@main
final class TodosTarget: ChaosTarget {
    static let files = ["store": "todos.json"]
    static let variants = ["fixed", "fragile", "atomic-write", "retries-fsync"]
    static let modes: [Health.Mode] = Health.Mode.standard + ["set-aside"]
    // No SQLite: storage faults reach the files through libc.
    static let sqlite: [SQLiteLibrary] = []
    static let workload: Workload? = Workload(write: "todos.add", read: "todos.list", afterDamage: .restoredFromBackup)
    static let actions: [TargetAction<TodosTarget>] = [
        TargetAction("todos.add", parameters: [.int("count", in: 1...10_000)]) { target, call in
            try target.add(count: call.int("count", default: 1), call)
        },
        TargetAction("todos.list", parameters: []) { target, _ in target.list() },
    ]

    private let context: TargetContext
    private var store: (any TodoStore)?
    private var lastError: String?
    private var unavailable: String?

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        let url = context.dataDirectory.appendingPathComponent("todos.json")
        do {
            switch context.variant {
            case "fragile": store = FragileTodoStore(url: url)
            case "atomic-write": store = try AtomicWriteTodoStore(url: url)
            case "retries-fsync": store = try RetryingFsyncTodoStore(url: url)
            default: store = try FixedTodoStore(url: url)
            }
        } catch {
            unavailable = error.message
        }
        return health
    }

    var health: Health {
        guard let store else { return Health(mode: .inMemory, severity: .error, message: unavailable) }
        guard let notice = store.notice else { return Health() }
        return Health(mode: store.restoredFromBackup ? .restoredFromBackup : "set-aside", severity: .warning, message: notice)
    }

    var surfaced: Surfaced {
        lastError.map(Surfaced.error) ?? (store?.notice).map(Surfaced.warning) ?? unavailable.map(Surfaced.error) ?? .nothing
    }

    private func add(count: Int, _ call: ActionCall) throws -> ActionResult {
        guard let store else { return .failed(unavailable) }
        for index in 0..<count {
            do {
                let todo = try store.add(title: "to-do \(index + 1)")
                call.acknowledge("todo:\(todo.id)")
            } catch {
                lastError = error.message
                return .failed(error.message)
            }
        }
        lastError = nil
        return .done()
    }

    private func list() -> ActionResult {
        guard let store else { return .failed(unavailable) }
        lastError = nil
        return .read(.int(store.all().count))
    }

    func snapshot() async throws -> [String: [String: String]] {
        ["todo": Dictionary(uniqueKeysWithValues: (store?.all() ?? []).map { ("todo:\($0.id)", $0.title) })]
    }

    func stop() async {
        store?.close()
        store = nil
    }
}
