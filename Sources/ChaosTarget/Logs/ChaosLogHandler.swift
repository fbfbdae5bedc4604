import Foundation
import Logging

/// The swift-log handler the worker host bootstraps (``TargetLogging/captured``): each
/// record goes to the controller as an event, with its level, message, metadata and
/// call site, and to standard error as swift-log's default handler writes it, so that
/// the app's console output is what it would be without Chaos.
struct ChaosLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    private let label: String
    private var console: StreamLogHandler

    init(label: String) {
        self.label = label
        console = StreamLogHandler.standardError(label: label)
    }

    /// Bootstraps swift-log once for this process.
    static func bootstrap() {
        LoggingSystem.bootstrap { label in ChaosLogHandler(label: label) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        let record = AppLogRecord(
            level: event.level.rawValue, message: event.message.description, label: label, source: event.source,
            file: event.file, function: event.function, line: Int(event.line),
            metadata: merged.isEmpty ? nil : merged.mapValues(\.description),
            error: event.error.map { String(describing: $0) })
        WorkerOutput.write(WorkerEvent(log: record))
        var console = console
        console.logLevel = logLevel
        console.metadata = metadata
        console.log(event: event)
    }
}
