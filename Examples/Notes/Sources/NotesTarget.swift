import Chaos
import Foundation
import GRDB

/// The example's Chaos target: how a user makes their own stack chaos-testable.
/// `chaos run SCENARIO --target-exec PATH --variant fragile|fixed` starts this
/// executable once per launch of the app, on a private data folder.
@MainActor
final class NotesTarget: ChaosTarget {
    static let files = ["store": "notes.sqlite", "wal": "notes.sqlite-wal"]
    static let actions = ["notes.add", "notes.list"]
    static let probes = ["health", "surfaced", "notes.count"]

    private let context: TargetContext
    private var repository: NotesRepository?
    private var lastError: String?
    private var nextID: Int64 = 1

    init(context: TargetContext) {
        self.context = context
    }

    private var path: String { context.dataDirectory.appendingPathComponent("notes.sqlite").path }

    func launch() async -> ScenarioValue {
        try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        if context.variant == "fragile" {
            repository = FragileNotesRepository(path: path)
        } else {
            repository = try? FixedNotesRepository(path: path)
        }
        nextID = ((try? repository?.all())?.map(\.id).max() ?? 0) + 1
        return (try? await probe("health")) ?? .null
    }

    func perform(_ action: String, arguments: [String: ScenarioValue]) async throws -> ActionResult {
        guard let repository else { return ActionResult(ok: false, userMessage: "The notebook is not available.") }
        switch action {
        case "notes.add":
            var count = 1
            if case let .int(number)? = arguments["count"] { count = number }
            var acknowledged: [String] = []
            for _ in 0..<count {
                let note = Note(id: nextID, text: "note \(nextID)")
                nextID += 1
                do {
                    try repository.add(note)
                    acknowledged.append("note:\(note.id)")
                    WorkerHost.record(WorkerEvent(event: .ack, key: "note:\(note.id)"))
                } catch let problem as NotesProblem {
                    lastError = problem.message
                    return ActionResult(ok: false, userMessage: problem.message, acknowledged: acknowledged,
                                        attempted: acknowledged + ["note:\(note.id)"])
                }
            }
            lastError = nil
            return ActionResult(ok: true, acknowledged: acknowledged, attempted: acknowledged)
        case "notes.list":
            do {
                let notes = try repository.all()
                lastError = nil
                return ActionResult(ok: true, value: .int(notes.count), isRead: true)
            } catch let problem as NotesProblem {
                lastError = problem.message
                return ActionResult(ok: false, userMessage: problem.message)
            }
        default:
            throw TargetError("unknown action '\(action)'; this target answers: \(Self.actions.joined(separator: ", "))")
        }
    }

    func probe(_ name: String) async throws -> ScenarioValue {
        switch name {
        case "health":
            let notice = repository?.notice
            return .map(["mode": .string(notice == nil ? "persistent" : "restored-from-backup"),
                         "message": notice.map(ScenarioValue.string) ?? .null])
        case "surfaced":
            if let lastError { return .map(["severity": .string("error"), "message": .string(lastError)]) }
            if let notice = repository?.notice { return .map(["severity": .string("warning"), "message": .string(notice)]) }
            return .map(["severity": .string("none"), "message": .null])
        case "notes.count":
            return .int((try? repository?.all().count) ?? 0)
        default:
            throw TargetError("unknown probe '\(name)'")
        }
    }

    func snapshot() async throws -> [String: [String: String]] {
        let notes = (try? repository?.all()) ?? []
        return ["note": Dictionary(uniqueKeysWithValues: notes.map { ("note:\($0.id)", $0.text) })]
    }

    func stop() async {
        repository?.close()
        repository = nil
    }
}
