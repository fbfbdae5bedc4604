/// What a fault belongs to, which is also which seam carries it out.
package enum FaultFamily: String, Sendable, CaseIterable, Codable {
    /// Files damaged by the controller while the app is down.
    case file
    /// Fault points in app code.
    case point
    /// The app's file calls: the SQLite VFS, or the libc seam.
    case storage
    /// The TCP fault proxy.
    case network
    /// The clock, through libfaketime.
    case clock
    /// The power, cut in the app's process below its files.
    case power
    /// Another process of the app on its shared store: a second worker of the target.
    case peer

    /// Whether a fault of the family stands once its step ran, until a `clear:` (a read
    /// that fails under it is its doing). A file's damage is done, a power cut is over
    /// once it came (one waiting for its moment is the power seam's to tell), and another
    /// process lets go of the store by itself.
    package var stands: Bool { self != .file && self != .power && self != .peer }
}

/// One kind of fault: its wire name, its parameters, and the decision it makes.
/// Toxiproxy's shape: one small file per kind, this one protocol, one explicit list
/// (``FaultCatalog``).
///
/// Faults *decide*; seams *carry out*. A kind reads its parameters and answers
/// questions (which bytes to garble, what to throw); it never touches files, sockets
/// or clocks, so it can be tested without them. *When* a fault fires is not the
/// kind's business either: that is the shared ``Trigger``.
///
/// Adding a kind: write a struct conforming to `Fault` in `Faults/<Family>/`, with
/// its YAML example in its doc comment and in ``example``, list it in
/// ``FaultCatalog/all``, and give it a test file of its own
/// (`Tests/ChaosTests/Faults/<Name>Tests.swift`). The family's seam carries it out
/// without knowing it by name (docs/ARCHITECTURE.md, "Adding a kind").
package protocol Fault: Sendable, Equatable {
    /// The wire name, kebab-case: `corrupt-file`.
    static var kind: String { get }
    static var family: FaultFamily { get }
    /// One line for `chaos list` and the docs.
    static var summary: String { get }
    /// A fault step using it, as YAML (a list item), for `chaos list` and the tests.
    static var example: String { get }
    /// The keys it reads besides `fault` (and the trigger keys when ``acceptsTrigger``).
    static var parameterKeys: [String] { get }
    /// Whether it fires repeatedly under a ``Trigger``. Kinds that act once, when
    /// their step runs (file faults), reject the trigger keys.
    static var acceptsTrigger: Bool { get }
    /// Whether the trigger's `on: store|journal|wal|any`, `path:` and `seam:` apply (storage faults).
    static var acceptsStorageFile: Bool { get }
    /// Whether it stands until cleared (default: its family's rule).
    static var stands: Bool { get }

    /// Reads the step's parameters; unknown keys have been rejected already.
    init(parameters: ScenarioParameters) throws(ScenarioError)

    /// The fault with its parameters, for reports: `corrupt-file store (garbage-header)`.
    var label: String { get }

    /// What can only be checked of the world when a scenario is loaded, not when a
    /// fault is made in code (a file it names exists). Default: nothing.
    func checkWhenLoaded(_ parameters: ScenarioParameters) throws(ScenarioError)
}

extension Fault {
    package static var acceptsStorageFile: Bool { false }
    /// Whether it stands until cleared: its family's rule (``FaultFamily/stands``), but
    /// where a kind says otherwise (a file taken away until cleared).
    package static var stands: Bool { family.stands }
    package func checkWhenLoaded(_ parameters: ScenarioParameters) throws(ScenarioError) {}

    /// All keys a step of this kind accepts besides `fault`.
    package static var acceptedKeys: [String] {
        parameterKeys + (acceptsTrigger ? Trigger.keys.filter { !Trigger.storageKeys.contains($0) || acceptsStorageFile } : [])
    }

    /// Equality across existentials: same kind and equal values.
    package func isEqual(to other: any Fault) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
