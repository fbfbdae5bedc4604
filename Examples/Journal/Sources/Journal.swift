import Foundation

/// The journal as the app's screens use it: opened by one of its start-ups, it saves
/// entries (the careful start-ups keep a copy after each save and at a clean exit; the
/// template keeps none), reads them back, and says what went wrong in plain words.
final class Journal {
    /// Nil: nothing could be opened, and ``notice`` says so.
    let database: AppDatabase?
    /// What the start-up told the user, if anything.
    let notice: String?
    /// Shown, not changed: a write is refused with the notice.
    let readOnly: Bool
    private let path: String
    private let keepsCopies: Bool

    /// `template` opens the store as Xcode's templates do; `careful` as `chaos check`
    /// taught it; `demo` carefully, then fills an empty journal with samples, as GRDB's
    /// demo app does.
    init(variant: String, path: String) {
        self.path = path
        keepsCopies = variant != "template"
        guard keepsCopies else {
            (database, notice, readOnly) = (TemplateStartup.open(at: path), nil, false)
            return
        }
        if variant == "demo" { AppDatabase.eraseIfSchemaChanged(at: path) }
        let opened = CarefulStartup.open(at: path)
        (database, notice, readOnly) = (opened.database, opened.notice, opened.readOnly)
        if variant == "demo" { try? opened.database?.addSamplesIfEmpty() }
    }

    /// Saves an entry; returns its id once it is saved (and, when the start-up keeps
    /// copies, copied: nothing but the store would hold it otherwise).
    func write(_ text: String) throws(JournalProblem) -> Int64 {
        let id: Int64?
        do {
            guard !readOnly, let database else { throw JournalProblem(notice) }
            id = try database.write(text).id
        } catch let problem as JournalProblem {
            throw problem
        } catch {
            throw JournalProblem("Your entry could not be saved. Please try again.", cause: "\(error)")
        }
        guard let id, let database else { throw JournalProblem(notice) }
        if keepsCopies, !CarefulStartup.keepCopy(of: database, at: path) {
            throw JournalProblem("Your entry was saved, but the journal's safety copy could not be made. "
                + "Please check your device's storage.", cause: "the copy after the save failed")
        }
        return id
    }

    func entries() throws(JournalProblem) -> [Entry] {
        guard let entries = try? database?.entries() else { throw JournalProblem(notice ?? "Your entries could not be loaded.") }
        return entries
    }

    func close() {
        if let database, keepsCopies, !readOnly { CarefulStartup.keepCopy(of: database, at: path) }
        try? database?.writer.close()
    }
}

/// What the journal's screen says when something goes wrong (its `errorDescription`),
/// and why, for the report.
struct JournalProblem: LocalizedError, CustomStringConvertible {
    let message: String?
    let cause: String?

    init(_ message: String?, cause: String? = nil) {
        self.message = message
        self.cause = cause
    }

    var errorDescription: String? { message }
    var description: String { cause ?? message ?? "refused" }
}
