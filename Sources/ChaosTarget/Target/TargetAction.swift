import Foundation

/// One action a scenario can `do:`, with its body: the name and what it does are one
/// declaration, so the list a scenario is checked against is the list that runs.
///
/// ```swift
/// TargetAction("notes.add") { target, call in
///     let note = try target.repository.add(text: call.string("text", default: "a note"))
///     call.acknowledge("note:\(note.id)")
///     return .done()
/// }
/// ```
///
/// An error the body throws fails the action (`ActionResult.failed(error)`): the
/// user read a `LocalizedError`'s description, and nothing for any other error. Only a
/// ``TargetError`` (a bad argument) is the scenario's problem rather than the app's.
public struct TargetAction<Target: ChaosTarget>: Sendable {
    public let name: String
    /// The arguments it takes; nil: not declared (any `with:` goes through unchecked).
    public let parameters: [ActionParameter]?
    let body: @MainActor @Sendable (Target, ActionCall) async throws -> ActionResult

    public init(_ name: String, parameters: [ActionParameter]? = nil,
                _ body: @escaping @MainActor @Sendable (Target, ActionCall) async throws -> ActionResult) {
        self.name = name
        self.parameters = parameters
        self.body = body
    }
}

/// One probe a scenario can ask with `state: {probe: NAME, equals: VALUE}`.
public struct TargetProbe<Target: ChaosTarget>: Sendable {
    public let name: String
    let body: @MainActor @Sendable (Target) async throws -> ScenarioValue

    public init(_ name: String, _ body: @escaping @MainActor @Sendable (Target) async throws -> ScenarioValue) {
        self.name = name
        self.body = body
    }
}

/// What an action was asked (`with:`), and how it tells Chaos about the user's records.
///
/// A write is reported once, as it happens: ``acknowledge(_:)`` the moment the app
/// tells the user a record is saved. Chaos hears it at once, so a power cut right
/// after still counts it, and checks after every fault that the record is still there
/// (or that the user was told it is not).
public struct ActionCall: Sendable {
    public let name: String
    public let arguments: [String: ScenarioValue]
    let report: @Sendable (WorkerEvent) -> Void

    package init(name: String, arguments: [String: ScenarioValue], report: @escaping @Sendable (WorkerEvent) -> Void) {
        self.name = name
        self.arguments = arguments
        self.report = report
    }

    /// The app told the user the record `key` (`note:42`) is saved: it must survive.
    /// Chaos then judges by key alone: a record that is there counts as kept, whatever
    /// it holds. Give its value (``acknowledge(_:value:)``) to have its content judged.
    public func acknowledge(_ key: String) { report(WorkerEvent(event: .ack, key: key)) }

    /// The app told the user the record `key` is saved with `value`: the row the target's
    /// `snapshot()` gives for `key` (for `.records(...)`, `String(describing: record)`).
    /// It is kept only if the final snapshot holds that key *with that row*; a record
    /// whose row changed is **corrupted** (an app that serves damaged bytes as good), a
    /// loss like a missing one unless the user was told. Only a digest of the value
    /// travels (``RecordDigest``). A later acknowledgement of the same key (an update)
    /// replaces the value; ``attempt(_:)`` of an acknowledged key makes its value
    /// uncertain until it is acknowledged again (the rewrite may or may not land).
    public func acknowledge(_ key: String, value: String) {
        var event = WorkerEvent(event: .ack, key: key)
        event.digest = RecordDigest.text(RecordDigest.of(value))
        report(event)
    }

    /// The app told the user `record` is saved in `table`: its key and value as
    /// `.records(table, ...)` writes them in a snapshot (`TABLE:ID`, `String(describing:)`).
    public func acknowledge<Record: Identifiable>(_ record: Record, in table: String) {
        guard let id = [String: [String: String]].plainID(record.id) else { return }
        acknowledge("\(table):\(id)", value: String(describing: record))
    }
    /// The app is about to write the record `key`: if the power goes out before the
    /// write is acknowledged, the record may be there or not.
    public func attempt(_ key: String) { report(WorkerEvent(event: .attempt, key: key)) }
    /// The app is about to delete the record `key`: if the action is cut before it tells
    /// the user (a power cut mid-delete) or answers with a failure, the record may be
    /// there or not — its absence is no loss.
    public func removing(_ key: String) { report(WorkerEvent(event: .removing, key: key)) }
    /// The app told the user the record `key` is deleted.
    public func removed(_ key: String) { report(WorkerEvent(event: .remove, key: key)) }

    /// The whole number `with: { key: N }`, or `value` when absent.
    public func int(_ key: String, default value: Int, in range: ClosedRange<Int> = 0...1_000_000) throws(TargetError) -> Int {
        switch arguments[key] {
        case nil: return value
        case let .int(number)? where range.contains(number): return number
        case let other?: throw TargetError("'\(key)' of \(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(other)")
        }
    }

    /// The text `with: { key: TEXT }`; `value` when absent (required when nil).
    public func string(_ key: String, default value: String? = nil) throws(TargetError) -> String {
        switch arguments[key] {
        case let .string(text)?: return text
        case nil:
            guard let value else { throw TargetError("\(name) needs '\(key)'") }
            return value
        case let other?: return other.description
        }
    }

    /// `with: { key: true|false }`, or `value` when absent.
    public func bool(_ key: String, default value: Bool) throws(TargetError) -> Bool {
        switch arguments[key] {
        case nil: return value
        case let .bool(flag)?: return flag
        case let other?: throw TargetError("'\(key)' of \(name) must be true or false, found \(other)")
        }
    }
}

/// What an action came to, as the user saw it.
public struct ActionResult: Sendable {
    /// True when the action did what the user asked.
    public var ok: Bool
    public var value: ScenarioValue?
    /// What the app showed the user for a failure.
    public var userMessage: String?
    /// The technical reason, for the report.
    public var error: String?
    /// A successful read of the user's data: what `recovered-within` waits for.
    public var isRead: Bool

    public init(ok: Bool, value: ScenarioValue? = nil, userMessage: String? = nil, error: String? = nil, isRead: Bool = false) {
        self.ok = ok
        self.value = value
        self.userMessage = userMessage
        self.error = error
        self.isRead = isRead
    }

    /// It did what the user asked.
    public static func done(_ value: ScenarioValue? = nil) -> ActionResult { ActionResult(ok: true, value: value) }
    /// It showed the user their data.
    public static func read(_ value: ScenarioValue? = nil) -> ActionResult { ActionResult(ok: true, value: value, isRead: true) }
    /// It failed, and told the user `userMessage`.
    public static func failed(_ userMessage: String?, error: String? = nil) -> ActionResult {
        ActionResult(ok: false, userMessage: userMessage, error: error)
    }

    /// It failed with `error`; the user was told what a `LocalizedError` describes
    /// (`errorDescription`), and nothing for any other error. An action that throws
    /// (anything but ``TargetError``) ends so.
    public static func failed(_ error: any Error) -> ActionResult {
        ActionResult(ok: false, userMessage: (error as? any LocalizedError)?.errorDescription, error: String(describing: error))
    }
}
