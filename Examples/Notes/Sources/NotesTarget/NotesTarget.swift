import ChaosTarget
import Foundation
import NotesCore

/// The example's Chaos target: the glue between Chaos and the notes app. `chaos check
/// --target-exec PATH --variant fragile|fixed` runs the storage catalog on it.
@main
final class NotesTarget: ChaosTarget {
    static let files = ["store": "notes.sqlite"]
    static let variants = ["fixed", "fragile"]
    static let workload: Workload? = Workload(write: "notes.add", read: "notes.list")
    static let actions: [TargetAction<NotesTarget>] = [
        TargetAction("notes.add", parameters: [.int("count", in: 1...10_000)]) { target, call in
            try target.add(count: call.int("count", default: 1), call)
        },
        TargetAction("notes.list", parameters: []) { target, _ in try target.list() },
    ]

    private let context: TargetContext
    private var repository: NotesRepository?
    private var lastError: String?
    private var unavailable: String?

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        let path = context.dataDirectory.appendingPathComponent("notes.sqlite").path
        do {
            repository = context.variant == "fragile" ? FragileNotesRepository(path: path) : try FixedNotesRepository(path: path)
        } catch {
            unavailable = (error as? NotesProblem)?.message ?? "The notebook is not available."
        }
        return health
    }

    var health: Health {
        guard let repository else { return Health(mode: .inMemory, severity: .error, message: unavailable) }
        return repository.notice.map { Health(mode: "set-aside", severity: .warning, message: $0) } ?? Health()
    }

    var surfaced: Surfaced {
        lastError.map(Surfaced.error) ?? (repository?.notice).map(Surfaced.warning) ?? health.message.map(Surfaced.error) ?? .nothing
    }

    private func add(count: Int, _ call: ActionCall) throws -> ActionResult {
        guard let repository else { return .failed(unavailable) }
        for _ in 0..<count {
            do {
                let note = try repository.add(text: "a note")
                call.acknowledge("note:\(note.id)")
            } catch let problem as NotesProblem {
                lastError = problem.message
                return .failed(problem.message)
            }
        }
        lastError = nil
        return .done()
    }

    private func list() throws -> ActionResult {
        do {
            let notes = try repository?.all() ?? []
            lastError = nil
            return .read(.int(notes.count))
        } catch let problem as NotesProblem {
            lastError = problem.message
            return .failed(problem.message)
        }
    }

    func snapshot() async throws -> [String: [String: String]] {
        ["note": Dictionary(uniqueKeysWithValues: ((try? repository?.all()) ?? []).map { ("note:\($0.id)", $0.text) })]
    }

    func stop() async {
        repository?.close()
        repository = nil
    }
}
