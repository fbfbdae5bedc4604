import ChaosTarget
import Foundation

/// A test app with a crash no catalog case reaches: renaming a tag to nothing force
/// unwraps the new name's first letter. `chaos check` never renames a tag (it knows only
/// the workload's write and read), so a crash log of that trap is found by the hunt
/// `chaos reproduce --from-crash` aims at it — the frames name `rename`, and the hunt
/// draws `tags.rename` more often, with the odd empty name its arguments include.
@main
final class TagsTarget: ChaosTarget {
    static let files = ["store": "tags.json"]
    static let sqlite: [SQLiteLibrary] = []
    static let workload: Workload? = Workload(write: "tags.add", read: "tags.list")
    static let actions: [TargetAction<TagsTarget>] = [
        TargetAction("tags.add") { target, call in target.add(call) },
        TargetAction("tags.list") { target, _ in .read(.int(target.tags.count)) },
        TargetAction("tags.rename", parameters: [.text("to")]) { target, call in TagsTarget.trapOnAThreadIfAsked(); return target.rename(to: try call.string("to", default: "x")) },
    ]

    private let file: URL
    private(set) var tags: [String] = []

    init(context: TargetContext) {
        file = context.dataDirectory.appendingPathComponent("tags.json")
    }

    func launch() async -> Health {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        tags = (try? JSONDecoder().decode([String].self, from: Data(contentsOf: file))) ?? []
        return Health()
    }

    var health: Health { Health() }
    var surfaced: Surfaced { .nothing }

    func add(_ call: ActionCall) -> ActionResult {
        let tag = "tag-\(tags.count + 1)"
        tags.append(tag)
        guard (try? JSONEncoder().encode(tags).write(to: file, options: .atomic)) != nil else { return .failed("Your tag was not saved.") }
        call.acknowledge("tag:\(tag)")
        return .done()
    }

    @inline(never)
    func rename(to name: String) -> ActionResult {
        let initial = name.first!  // TagsTarget.swift:46 — a tag renamed to nothing
        return .done(.string(String(initial)))
    }

    func snapshot() async throws -> [String: [String: String]] {
        ["tags": Dictionary(uniqueKeysWithValues: tags.map { ("tag:\($0)", $0) })]
    }

    func stop() async {}
}

/// Two threads that trap, as an app's `fatalError` and a dependency's `deinit` asserting
/// on its pool's thread do (`CHAOS_TEST_TAGS_THREAD_TRAP`): `alone`, the thread traps and
/// the rename waits; `after`, the thread traps once the rename's trap is being handled.
/// The thread's trap is `raise(SIGILL)`: in the handler within microseconds of the first
/// trap's, as a thread already in a failed check's path is (a Swift trap prints first).
extension TagsTarget {
    nonisolated static func trapOnAThreadIfAsked() {
        guard let when = ProcessInfo.processInfo.environment["CHAOS_TEST_TAGS_THREAD_TRAP"] else { return }
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            started.signal()
            let deadline = Date().addingTimeInterval(10)
            while when == "after", !KnownTrapSites.isHandlingATrap, Date() < deadline {}
            trapOnThisThread()
        }
        thread.start()
        started.wait()
        if when == "alone" { _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 10) }
    }

    /// A handler that returns (a known site's puts the default action back) meets the
    /// second `raise`, which ends the process.
    @inline(never)
    nonisolated static func trapOnThisThread() {
        raise(SIGILL)  // a second thread's trap
        raise(SIGILL)
    }
}
