import ChaosTarget
import Foundation

/// A test app that asks the disk how much room it has when a save fails, as apps do
/// that tell a full disk from a damaged store by the free space (GRDB#1251: an app saw
/// "disk is full" with over 1 GB free, and wiped its database). `--variant wipes`: a
/// save refused with room shown is taken for damage, and the list is started over;
/// `keeps` (the default): a refused save is refused, told, and nothing else changes.
/// What `disk-full`'s `reported-free` is tested on, both ways.
@main
final class SpaceCheckTarget: ChaosTarget {
    static let files = ["store": "items.json"]
    static let variants = ["keeps", "wipes"]
    static let sqlite: [SQLiteLibrary] = []
    static let workload: Workload? = Workload(write: "items.add", read: "items.list")
    static let actions: [TargetAction<SpaceCheckTarget>] = [
        TargetAction("items.add") { target, call in target.add(call) },
        TargetAction("items.list") { target, _ in .read(.int(target.items.count)) },
    ]

    /// Below this much room a refused save is a full disk; above it, "damage".
    static let roomForASave: UInt64 = 100_000_000

    private let file: URL
    private let wipes: Bool
    private(set) var items: [Int] = []

    init(context: TargetContext) {
        file = context.dataDirectory.appendingPathComponent("items.json")
        wipes = context.variant == "wipes"
    }

    func launch() async -> Health {
        items = (try? JSONDecoder().decode([Int].self, from: Data(contentsOf: file))) ?? []
        return Health()
    }

    func add(_ call: ActionCall) -> ActionResult {
        let item = (items.max() ?? 0) + 1
        guard (try? JSONEncoder().encode(items + [item]).write(to: file)) != nil else {
            if wipes, freeSpace() >= Self.roomForASave {
                // "There is room, so the file must be damaged": started over.
                items = []
                try? Data("[]".utf8).write(to: file)
            }
            return .failed("Your item was not saved: there is not enough space on this device.")
        }
        items.append(item)
        call.acknowledge("item:\(item)")
        return .done()
    }

    /// The bytes free where the list is kept, as statvfs says.
    private func freeSpace() -> UInt64 {
        var info = statvfs()
        guard statvfs(file.deletingLastPathComponent().path, &info) == 0 else { return 0 }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }

    func snapshot() async throws -> [String: [String: String]] {
        ["item": Dictionary(uniqueKeysWithValues: items.map { ("item:\($0)", "\($0)") })]
    }
}
