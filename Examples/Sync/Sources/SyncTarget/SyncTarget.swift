import ChaosTarget
import Foundation
import NotesCore
import SyncCore

/// The sync example's Chaos target: a notebook saved on the device and synced to the
/// app's own server, a real HTTP server (Hummingbird) the target declares as its remote.
/// `chaos check --target-exec PATH --variant fragile|fixed` runs the storage catalog on
/// it, network cases included: Chaos starts the server for each case, behind its fault
/// proxy, and gives the app the proxy's address.
@main
final class SyncTarget: ChaosTarget {
    static let files = ["store": "notes.sqlite"]
    static let variants = ["fixed", "fragile"]
    static let workload: Workload? = Workload(write: "notes.add", read: "notes.list")
    static let actions: [TargetAction<SyncTarget>] = [
        TargetAction("notes.add", parameters: [.int("count", in: 1...10_000)]) { target, call in
            await target.add(count: try call.int("count", default: 1), call)
        },
        TargetAction("notes.list", parameters: []) { target, _ in target.list() },
        TargetAction("notes.sync", parameters: []) { target, _ in await target.sync() },
    ]
    /// The server, beside this executable (`swift build` puts both products there),
    /// started by Chaos for every case on a port of its choice.
    static var remotes: [Remote] {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let server = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("chaos-example-sync-server").path
        return [.command("sync", executable: server, arguments: ["--port", Remote.portPlaceholder], probes: ["notes": "/chaos/probe/notes"])]
    }

    private let context: TargetContext
    private var notebook: (any SyncedNotes)?
    private var lastError: String?
    private var unavailable: String?
    private var notice: String?

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        let path = context.dataDirectory.appendingPathComponent("notes.sqlite").path
        do {
            let repository = try FixedNotesRepository(path: path)
            notice = repository.notice
            let server = context.remotes["sync"]?.url()
            let notebook: any SyncedNotes = context.variant == "fragile" ? FragileSyncedNotes(repository: repository, server: server)
                : FixedSyncedNotes(repository: repository, server: server)
            await notebook.started()
            self.notebook = notebook
        } catch {
            unavailable = (error as? NotesProblem)?.message ?? "The notebook is not available."
        }
        return health
    }

    var health: Health {
        guard let notebook else { return Health(mode: .inMemory, severity: .error, message: unavailable) }
        if let notice { return Health(mode: "set-aside", severity: .warning, message: notice) }
        return notebook.syncNotice.map { Health(mode: .localOnly, severity: .warning, message: $0) } ?? Health()
    }

    var surfaced: Surfaced {
        lastError.map(Surfaced.error) ?? notice.map(Surfaced.warning) ?? notebook?.syncNotice.map(Surfaced.warning)
            ?? health.message.map(Surfaced.error) ?? .nothing
    }

    private func add(count: Int, _ call: ActionCall) async -> ActionResult {
        guard let notebook else { return .failed(unavailable ?? "The notebook is not available.") }
        for _ in 0..<count {
            if let problem = await notebook.add(text: SyncedNote.newText(), acknowledge: { call.acknowledge($0) }) {
                lastError = problem
                return .failed(problem)
            }
        }
        lastError = nil
        return .done()
    }

    private func list() -> ActionResult {
        do {
            let notes = try notebook?.notes() ?? []
            lastError = nil
            return .read(.int(notes.count))
        } catch let problem as NotesProblem {
            lastError = problem.message
            return .failed(problem.message)
        } catch {
            return .failed("Your notes can't be read right now.")
        }
    }

    private func sync() async -> ActionResult {
        guard let notebook else { return .failed(unavailable ?? "The notebook is not available.") }
        return await notebook.sync() ? .done() : .failed("Your notes could not be synced; they are kept on this device.")
    }

    func snapshot() async throws -> [String: [String: String]] {
        ["note": Dictionary(((try? notebook?.notes()) ?? []).map { (SyncedNote.key(of: $0.text), $0.text) }) { first, _ in first }]
    }

    func stop() async {
        notebook?.close()
        notebook = nil
    }
}
