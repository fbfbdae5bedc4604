/// Whether the worker host installs Chaos's swift-log handler (``ChaosTarget/logging``).
///
/// swift-log's `LoggingSystem.bootstrap` may run once per process, and a second call
/// traps. The host bootstraps before it makes the target, so that every `Logger` the
/// app makes sends its records to Chaos as evidence (and still to standard error, as
/// swift-log's default handler does). An app whose start-up code bootstraps swift-log
/// itself declares `.own`: Chaos then leaves logging alone and reads no log records.
public enum TargetLogging: String, Codable, Sendable {
    /// The host bootstraps swift-log with Chaos's handler (the default).
    case captured
    /// The app bootstraps swift-log itself: no records reach Chaos.
    case own
}
