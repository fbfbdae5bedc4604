import ChaosTarget
import Foundation

/// The journal example's Chaos target. `--variant template` starts the app the way
/// Xcode's templates do; `--variant careful` the way `chaos check` taught it to;
/// `--variant demo` starts carefully and, like GRDB's demo app, fills an empty journal
/// with sample entries: records the app makes by itself, which Chaos learns from a clean
/// launch and never counts as unexpected.
@main
final class JournalTarget: ChaosTarget {
    static let files = ["store": "journal.sqlite"]
    static let variants = ["careful", "template", "demo"]
    /// The store the first release left (migration v1, no `mood` column): `chaos check`
    /// migrates it plainly and on a full disk (fixtures/make-journal-v1.py wrote it).
    static let workload: Workload? = Workload(write: "journal.write", read: "journal.read", olderStores: [
        OlderStore("v1", path: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../fixtures/journal-v1.sqlite").standardizedFileURL.path, records: 12),
    ])
    static let actions: [TargetAction<JournalTarget>] = [
        TargetAction("journal.write") { target, call in target.write(call) },
        TargetAction("journal.read") { target, _ in target.read() },
    ]

    private let context: TargetContext
    private var database: AppDatabase?
    private var notice: String?
    private var failure: String?
    private var readOnly = false

    init(context: TargetContext) { self.context = context }

    /// The careful start-ups keep a copy after each save and at a clean exit; the template does not.
    private var keepsCopies: Bool { context.variant != "template" }

    private var path: String { context.dataDirectory.appendingPathComponent("journal.sqlite").path }

    func launch() async -> Health {
        try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        if context.variant == "template" {
            database = TemplateStartup.open(at: path)
        } else {
            let opened = CarefulStartup.open(at: path)
            (database, notice, readOnly) = (opened.database, opened.notice, opened.readOnly)
            if context.variant == "demo" { try? database?.addSamplesIfEmpty() }
        }
        return health
    }

    var health: Health {
        database == nil ? Health(mode: .inMemory, severity: .error, message: notice)
            : readOnly ? Health(mode: .readOnly, severity: .warning, message: notice)
            : notice.map { Health(mode: .restoredFromBackup, severity: .warning, message: $0) } ?? Health()
    }

    var surfaced: Surfaced { failure.map(Surfaced.error) ?? notice.map { Surfaced(health.severity, $0) } ?? .nothing }

    private func write(_ call: ActionCall) -> ActionResult {
        do {
            guard !readOnly, let database, let id = try database.write("Dear diary").id else { return .failed(notice) }
            if keepsCopies, !CarefulStartup.keepCopy(of: database, at: path) {
                failure = "Your entry was saved, but the journal's safety copy could not be made. "
                    + "Please check your device's storage."
                return .failed(failure, error: "the copy after the save failed")
            }
            call.acknowledge("entry:\(id)")
            failure = nil
            return .done()
        } catch {
            failure = "Your entry could not be saved. Please try again."
            return .failed(failure, error: "\(error)")
        }
    }

    private func read() -> ActionResult {
        guard let entries = try? database?.entries() else { return .failed(notice ?? "Your entries could not be loaded.") }
        return .read(.int(entries.count))
    }

    func snapshot() async throws -> [String: [String: String]] {
        let entries = try database?.entries() ?? []
        return ["entry": Dictionary(uniqueKeysWithValues: entries.map { ("entry:\($0.id ?? 0)", $0.text) })]
    }

    func stop() async {
        if let database, keepsCopies, !readOnly { CarefulStartup.keepCopy(of: database, at: path) }
        try? database?.writer.close()
        database = nil
    }
}
