import Foundation

/// What a storage stack implements to run under Chaos: the built-in reference app
/// does, and so can a user's own app, in a small executable that links `Chaos` and
/// calls ``WorkerHost/run(_:)``.
///
/// One instance serves one launch of the app in one worker process. The controller
/// starts a new process for every `launch` step, on the same data directory, so a
/// target keeps nothing in memory that a real app would not lose on a restart.
@MainActor
public protocol ChaosTarget: AnyObject, Sendable {
    /// Logical file names (`store`, `wal`...) → paths relative to the data directory.
    static var files: [String: String] { get }
    /// Action names the target answers (`favorites.add`...).
    static var actions: [String] { get }
    /// Probe names the target answers; `health` and `surfaced` are expected of every target.
    static var probes: [String] { get }

    init(context: TargetContext)

    /// Starts the app. Must not trap on any data directory; reports what it found.
    func launch() async -> ScenarioValue
    /// Performs a user-level action. Throw ``TargetError`` for an unknown action or a bad argument.
    func perform(_ action: String, arguments: [String: ScenarioValue]) async throws -> ActionResult
    /// Answers a probe.
    func probe(_ name: String) async throws -> ScenarioValue
    /// Every record of user data: table → record key → canonical row text.
    func snapshot() async throws -> [String: [String: String]]
    /// Applies a target-specific fault effect at a fault point (`reset-context`).
    /// Called on whatever thread hit the point, so it must be thread-safe.
    nonisolated func applyEffect(_ effect: String, at point: String)
    /// Graceful stop.
    func stop() async
}

public extension ChaosTarget {
    nonisolated func applyEffect(_ effect: String, at point: String) {}
}

/// Where and how a target runs.
public struct TargetContext: Sendable {
    /// The app's private data folder; it survives relaunches within one case.
    public var dataDirectory: URL
    /// `hardened` or `legacy`, or whatever variants a user target offers.
    public var variant: String
    /// Scenario `options:` (such as `synchronous: full`).
    public var options: [String: String]
    /// The case's seed, for any randomness in the target.
    public var seed: UInt64

    public init(dataDirectory: URL, variant: String, options: [String: String], seed: UInt64) {
        self.dataDirectory = dataDirectory
        self.variant = variant
        self.options = options
        self.seed = seed
    }

    /// Reads the arguments Chaos starts a worker with:
    /// `--data DIR --variant V --seed N [--option KEY=VALUE ...]`.
    ///
    /// ```swift
    /// let context = try TargetContext(workerArguments: Array(CommandLine.arguments.dropFirst()))
    /// ```
    ///
    /// A hand-written reader, not ArgumentParser: a run starts hundreds of workers, and
    /// every millisecond of a worker's start is paid each time.
    public init(workerArguments arguments: [String]) throws(TargetError) {
        var data: String?
        var variant = "hardened"
        var seed: UInt64 = 1
        var options: [String: String] = [:]
        var words = arguments.makeIterator()
        while let word = words.next() {
            guard ["--data", "--variant", "--seed", "--option"].contains(word) else {
                throw TargetError("unknown worker argument '\(word)'; expected --data, --variant, --seed, --option")
            }
            guard let value = words.next() else { throw TargetError("\(word) needs a value") }
            switch word {
            case "--data": data = value
            case "--variant": variant = value
            case "--seed":
                guard let number = UInt64(value) else { throw TargetError("--seed wants a whole number, got '\(value)'") }
                seed = number
            default:
                let pair = value.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { throw TargetError("--option wants KEY=VALUE, got '\(value)'") }
                options[pair[0]] = pair[1]
            }
        }
        guard let data else { throw TargetError("--data DIR is required: the app's data folder") }
        self.init(dataDirectory: URL(fileURLWithPath: data), variant: variant, options: options, seed: seed)
    }
}

/// The result of one action, as the user would have seen it.
public struct ActionResult: Sendable {
    /// True when the action did what the user asked.
    public var ok: Bool
    public var value: ScenarioValue?
    /// What the app showed for a failure.
    public var userMessage: String?
    public var error: String?
    public var acknowledged: [String]
    public var attempted: [String]
    public var removed: [String]
    /// True for a successful read of user data (what `recovered-within` waits for).
    public var isRead: Bool

    public init(ok: Bool, value: ScenarioValue? = nil, userMessage: String? = nil, error: String? = nil,
                acknowledged: [String] = [], attempted: [String] = [], removed: [String] = [], isRead: Bool = false) {
        self.ok = ok
        self.value = value
        self.userMessage = userMessage
        self.error = error
        self.acknowledged = acknowledged
        self.attempted = attempted
        self.removed = removed
        self.isRead = isRead
    }
}

/// A request the target cannot serve: an unknown action or probe, a bad argument.
/// The controller reports it as a harness error, not as the app's failure.
public struct TargetError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
