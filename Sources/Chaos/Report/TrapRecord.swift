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
    @ExplicitNull package var message: String?
    /// The first frame in project code, `File.swift:LINE`.
    @ExplicitNull package var site: String?
    @ExplicitNull package var backtrace: String?
    /// When no site is named: why not, and what the backtrace does show (a trap on a
    /// thread with no frame of the app's code: its first frame, in which dependency).
    package var siteNote: String?

    package init(signal: Int32, signalName: String, message: String? = nil, site: String? = nil, backtrace: String? = nil) {
        self.signal = signal
        self.signalName = signalName
        self.message = message
        self.site = site
        self.backtrace = backtrace
    }

}
