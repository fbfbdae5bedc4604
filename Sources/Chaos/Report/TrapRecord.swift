import ChaosTarget

/// How a worker trapped: the signal, the Swift runtime's message, and where.
///
/// ```json
/// { "signal" : 4, "signalName" : "SIGILL",
///   "message" : "Index out of range",
///   "site" : "QuizGenerator.swift:42", "backtrace" : "…" }
/// ```
package struct TrapRecord: Codable, Sendable, Equatable {
    package var signal: Int32
    /// `SIGILL`, `SIGTRAP`, `SIGABRT`, `SIGBUS`, `SIGSEGV`.
    package var signalName: String
    /// The text after `Fatal error: ` on the worker's stderr (or the runtime's crash
    /// banner when there was no such line).
    package var message: String?
    /// The first frame in project code, `File.swift:LINE`.
    package var site: String?
    package var backtrace: String?

    package init(signal: Int32, signalName: String, message: String? = nil, site: String? = nil, backtrace: String? = nil) {
        self.signal = signal
        self.signalName = signalName
        self.message = message
        self.site = site
        self.backtrace = backtrace
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(signal, forKey: .signal)
        try container.encode(signalName, forKey: .signalName)
        try container.encodeOrNull(message, forKey: .message)
        try container.encodeOrNull(site, forKey: .site)
        try container.encodeOrNull(backtrace, forKey: .backtrace)
    }
}
