/// One record the app logged through swift-log, as the worker sends it to the
/// controller (``WorkerEvent/log``): what the app's own log handler would have written,
/// with the call site that a console line leaves out.
package struct AppLogRecord: Codable, Sendable, Equatable {
    /// `trace` … `critical`, swift-log's names.
    package var level: String
    package var message: String
    /// The logger's label (`com.example.store`).
    package var label: String
    /// The module that logged it.
    package var source: String
    /// `#fileID`: `Module/File.swift`.
    package var file: String
    package var function: String
    package var line: Int
    /// The record's metadata, each value as text; nil when it had none.
    package var metadata: [String: String]?
    /// The error the app attached, as text.
    package var error: String?

    package init(level: String, message: String, label: String, source: String, file: String, function: String, line: Int,
                 metadata: [String: String]? = nil, error: String? = nil) {
        self.level = level
        self.message = message
        self.label = label
        self.source = source
        self.file = file
        self.function = function
        self.line = line
        self.metadata = metadata
        self.error = error
    }

    /// swift-log's levels, least severe first: `logged: {level: error}` matches `error`
    /// and `critical`.
    package static let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
}
