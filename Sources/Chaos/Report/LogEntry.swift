import ChaosTarget
import Foundation

/// One record the app logged (swift-log), beside the step during which it came.
///
/// ```json
/// { "atMs" : 412, "step" : 2, "level" : "error", "message" : "The store could not be opened",
///   "label" : "chaos.store", "source" : "NotesCore", "file" : "NotesCore/NoteStore.swift",
///   "function" : "open(at:)", "line" : 120, "metadata" : { "reason" : "file is not a database" } }
/// ```
package struct LogEntry: Codable, Sendable, Equatable {
    /// Milliseconds since the case started, when the controller read it.
    package var atMs: Int
    /// The scenario step running when it came (its `index`); 0 outside the scenario's
    /// own steps (a sweep's fault, the evidence gathered after the last step).
    package var step: Int
    package var level: String
    package var message: String
    package var label: String
    package var source: String
    /// `#fileID`: `Module/File.swift`.
    package var file: String
    package var function: String
    package var line: Int
    @ExplicitNull package var metadata: [String: String]?
    @ExplicitNull package var error: String?

    package init(_ record: AppLogRecord, atMs: Int, step: Int) {
        self.atMs = atMs
        self.step = step
        level = record.level
        message = record.message
        label = record.label
        source = record.source
        file = record.file
        function = record.function
        line = record.line
        metadata = record.metadata
        error = record.error
    }

    /// `File.swift:LINE`, as trap sites are named.
    package var site: String { "\(URL(fileURLWithPath: file).lastPathComponent):\(line)" }

    /// Its severity, from 0 (`trace`) to 6 (`critical`).
    package var severity: Int { AppLogRecord.levels.firstIndex(of: level) ?? 0 }

    /// `key=value key=value`, sorted by key; nil without metadata.
    package var metadataText: String? {
        guard let metadata, !metadata.isEmpty else { return nil }
        return metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// What the record says, for a reader: level, site, message, metadata and error.
    package var text: String {
        var text = "\(level) \(site) \(message)"
        if let metadataText { text += " " + metadataText }
        if let error { text += " (error: \(error))" }
        return text
    }

    /// Everything the app wrote in it: the message, the metadata's values, the error.
    package var writtenText: [String] {
        [message] + (metadata.map { Array($0.values) } ?? []) + (error.map { [$0] } ?? [])
    }

    /// The most records a case keeps; an app that logs in a loop does not fill the report.
    package static let keptPerCase = 500
}
