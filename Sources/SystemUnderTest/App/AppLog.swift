import Logging

/// The app's loggers (apple/swift-log), one per area. Seeds 000, 001 and 003 ask for every
/// error to be logged with its file, function and line (swift-log records the call site
/// of each record), and seed 001 for no personal data in a log: a record says what
/// happened and to which record id, never a name, a code or a note the user wrote.
///
/// Made when first used, so after whatever bootstrapped swift-log (a host, a test).
enum AppLog {
    static let store = Logger(label: "chaos.app.store")
    static let screens = Logger(label: "chaos.app.screens")
    static let family = Logger(label: "chaos.app.family")
}
