import ChaosTarget
import SyncCore

/// The sync example's Chaos target: a notebook saved on the device and synced to the
/// app's own server, a real HTTP server (Hummingbird) the target declares as its remote.
/// `chaos check --target-exec PATH --variant fragile|fixed` runs the storage catalog on
/// it, network cases included: Chaos starts the server for each case, behind its fault
/// proxy, and gives the app the proxy's address.
@main
final class SyncTarget: ChaosTarget {
    /// The notebook and its backup (taken after every save): a fault may aim at either.
    static let files = ["store": "notes.sqlite", "backup": "notes.sqlite.backup"]
    static let variants = ["fixed", "fragile"]
    static let workload: Workload? = Workload(write: "notes.add", read: "notes.list")
    static let actions: [TargetAction<SyncTarget>] = [
        TargetAction("notes.add", parameters: [.int("count", in: 1...10_000)]) { target, call in
            let notebook = try target.launched(target.notebook)
            for _ in 0..<(try call.int("count", default: 1)) {
                if let problem = await notebook.add(text: SyncedNote.newText(), acknowledge: { call.acknowledge($0) }) { return .failed(problem) }
            }
            return .done()
        },
        TargetAction("notes.list", parameters: []) { target, _ in .read(.int(try target.notebook?.notes().count ?? 0)) },
        TargetAction("notes.sync", parameters: []) { target, _ in
            await target.notebook?.sync() == true ? .done() : .failed("Your notes could not be synced; they are kept on this device.")
        },
    ]
    /// The server, beside this executable (`swift build` puts both products there),
    /// started by Chaos for every case on a port of its choice.
    static let remotes: [Remote] = [.command("sync", executable: Remote.product("chaos-example-sync-server"),
                                             arguments: ["--port", Remote.portPlaceholder], probes: ["notes": "/chaos/probe/notes"],
                                             snapshot: "/chaos/snapshot/notes")]

    private let context: TargetContext
    private var notebook: (any SyncedNotes)?

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        do { notebook = try await openSyncedNotes(variant: context.variant, path: context.path("notes.sqlite"), server: context.remotes["sync"]?.url()) } catch {
            return .unavailable(error.message)
        }
        return health
    }

    /// Live, not the launch's alone: notes kept on the device while the server is behind.
    var health: Health {
        guard let notebook else { return launchHealth }
        return notebook.notice.map { .warning($0, mode: "set-aside") } ?? .warning(notebook.syncNotice, mode: .localOnly)
    }

    func snapshot() async throws -> [String: [String: String]] { .records("note", (try? notebook?.notes()) ?? [], id: { SyncedNote.tag(of: $0.text) }) }

    /// The notes the screen shows as synced: what `claims-hold` checks against the server's own list.
    var claims: [String: [String]] { ["sync": notebook?.syncedKeys ?? []] }

    func stop() async { notebook?.close() }
}
