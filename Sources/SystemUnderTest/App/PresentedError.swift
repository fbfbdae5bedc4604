import Logging

/// What the user is told about an error: the app's typed errors carry their own plain
/// words; anything else gets a generic, still plain, message. Every screen shows errors
/// through it.
struct PresentedError {
    /// What the user reads once a screen's retries ran out (``BoundedRetry``).
    static let retriesExhaustedMessage =
        "This still isn't working. Please restart the app, and contact support if it keeps happening."

    let message: String
    let suggestion: String
    /// Whether trying the same thing again may help.
    let isRetryable: Bool

    /// Logs the error where the screen met it (the caller's file, function and line).
    init(_ error: any Error, file: String = #fileID, function: String = #function, line: UInt = #line) {
        defer {
            AppLog.screens.error("An error was shown to the user", metadata: ["error": "\(error)", "retryable": "\(isRetryable)"],
                                 file: file, function: function, line: line)
        }
        switch error {
        case let error as DatabaseError:
            (message, suggestion, isRetryable) = (error.userMessage, error.recoverySuggestion, error.isRetryable)
        case let error as VocabularyError:
            (message, suggestion, isRetryable) = (error.userMessage, error.recoverySuggestion, false)
        default:
            (message, suggestion, isRetryable) = ("Something went wrong. Please try again.", "Try again in a moment.", true)
        }
    }
}
