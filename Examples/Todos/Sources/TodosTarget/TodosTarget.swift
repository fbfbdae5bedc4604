import ChaosTarget
import Foundation
import TodosCore

/// The to-do example's Chaos target: a Codable JSON-file store, no SQLite at all, so
/// every storage fault and the power cut go through Chaos's libc seam.
/// `--variant fragile|atomic-write|retries-fsync|fixed` picks how the list is written.
@main
final class TodosTarget: ChaosTarget {
    /// The list and its backup (the list before the last save): a fault may aim at either.
    static let files = ["store": "todos.json", "backup": "todos.json.backup"]
    static let variants = ["fixed", "fragile", "atomic-write", "retries-fsync"]
    static let modes: [Health.Mode] = Health.Mode.standard + ["set-aside"]
    // No SQLite: storage faults reach the files through libc.
    static let sqlite: [SQLiteLibrary] = []
    static let workload: Workload? = Workload(write: "todos.add", read: "todos.list", afterDamage: .restoredFromBackup)
    static let actions: [TargetAction<TodosTarget>] = [
        TargetAction("todos.add", parameters: [.int("count", in: 1...10_000)]) { target, call in
            let store = try target.opened()
            for index in 1...(try call.int("count", default: 1)) { call.acknowledge(try store.add(title: "to-do \(index)"), in: "todo") }
            return .done()
        },
        TargetAction("todos.list", parameters: []) { target, _ in .read(.int(try target.opened().all().count)) },
    ]

    private let context: TargetContext
    private var store: (any TodoStore)?
    /// What opening the list said when the launch could not and a later use did.
    private var reopened: Health?
    var health: Health { reopened ?? launchHealth }

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health { open() }

    private func open() -> Health {
        do {
            store = try openTodoStore(variant: context.variant, url: URL(fileURLWithPath: context.path("todos.json")))
        } catch {
            return .unavailable(error.message)
        }
        return .warning(store?.notice, mode: store?.restoredFromBackup == true ? .restoredFromBackup : "set-aside")
    }

    /// The list, opened now if the launch could not read it (a device locked at launch,
    /// since unlocked): the app waits for its data, it never starts without it.
    func opened() throws(LaunchFailure) -> any TodoStore {
        if store == nil { reopened = open() }
        return try launched(store)
    }

    func snapshot() async throws -> [String: [String: String]] { .records("todo", store?.all() ?? []) }

    func stop() async { store?.close() }
}
