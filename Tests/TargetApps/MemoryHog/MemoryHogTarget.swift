import ChaosTarget
import Foundation

/// A test app whose import holds what it imports in memory, as a photo or a feed import
/// does, and whose list is shared with its widget: what `memory-kill` and `do: … in:
/// peer` are tested on, both ways. `--variant writes-first` (the default) reads the file
/// again before each batch of 100 items (what another process added is kept), writes it,
/// then acknowledges them; `acknowledges-first` tells the user each item is imported as
/// it is read, and writes the list it holds in memory once the import is done — an
/// import the system ends part way loses every item it acknowledged, and a write from
/// memory loses what the widget saved meanwhile.
@main
final class MemoryHogTarget: ChaosTarget {
    static let files = ["store": "items.json"]
    static let sharedContainer = ["store"]
    static let variants = ["writes-first", "acknowledges-first"]
    static let sqlite: [SQLiteLibrary] = []
    static let workload: Workload? = Workload(write: "items.import", read: "items.list")
    static let actions: [TargetAction<MemoryHogTarget>] = [
        TargetAction("items.import") { target, call in try target.importItems(call) },
        TargetAction("items.list") { target, _ in .read(.int(target.items.count)) },
    ]

    private let file: URL
    private let acknowledgesFirst: Bool
    private(set) var items: [Int] = []
    /// What the import read, kept in memory: 16 KB an item.
    private var payloads: [[UInt8]] = []

    init(context: TargetContext) {
        file = context.dataDirectory.appendingPathComponent("items.json")
        acknowledgesFirst = context.variant == "acknowledges-first"
    }

    func launch() async -> Health {
        items = load()
        return Health()
    }

    private func load() -> [Int] { (try? JSONDecoder().decode([Int].self, from: Data(contentsOf: file))) ?? [] }

    func importItems(_ call: ActionCall) throws(TargetError) -> ActionResult {
        let count = try call.int("count", default: 1, in: 1...100_000)
        if !acknowledgesFirst { items = load() }
        var pending: [Int] = []
        for _ in 0..<count {
            let item = (items.max() ?? 0) + pending.count + 1
            payloads.append([UInt8](repeating: UInt8(item % 251), count: 16_384))
            pending.append(item)
            if acknowledgesFirst {
                call.acknowledge("item:\(item)")
            } else if pending.count == 100 {
                guard save(pending, call) else { return .failed("The import stopped: items could not be saved.") }
                pending = []
            }
        }
        return save(pending, call) ? .done() : .failed("The import stopped: items could not be saved.")
    }

    /// Writes the list with `new` added, synced; acknowledges them once written (the
    /// careful variant).
    private func save(_ new: [Int], _ call: ActionCall) -> Bool {
        guard !new.isEmpty else { return true }
        if !acknowledgesFirst { items = load() }
        guard let data = try? JSONEncoder().encode(items + new), (try? data.write(to: file, options: .atomic)) != nil else { return false }
        items += new
        if !acknowledgesFirst { for item in new { call.acknowledge("item:\(item)") } }
        return true
    }

    func snapshot() async throws -> [String: [String: String]] {
        ["item": Dictionary(uniqueKeysWithValues: items.map { ("item:\($0)", "\($0)") })]
    }
}
