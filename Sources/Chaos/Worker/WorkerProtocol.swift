import Foundation

/// The wire protocol between the controller (`chaos run`) and a worker process:
/// JSON lines over the worker's stdin and stdout, one request, one reply, in order.
///
/// The worker writes `{"event":"ready",...}` once it is ready, then answers each
/// request with a reply carrying the same `id`. Between a request and its reply it
/// may write event lines (``WorkerEvent``): writes acknowledged and faults fired, as
/// they happen, so that a worker that dies in the middle of a request loses none.
/// Anything the worker prints that is not a protocol line must go to stderr, which
/// the controller keeps whole.
public enum WorkerOperation: String, Codable, Sendable {
    /// Start the app: open the store, recover as needed. Replies with the health.
    case launch
    /// A user-level action, such as `favorites.add`.
    case perform
    /// A read-only question about the app's state, such as `health`.
    case probe
    /// A canonical dump of all user data.
    case snapshot
    /// Arm an in-process fault (``WorkerRequest/fault``) in its seam.
    case arm
    /// Disarm the fault with id `name` (every fault when `name` is nil).
    case disarm
    /// Graceful stop: the app closes its store; the worker exits 0 after replying.
    case stop
    /// Start keeping the undo log of unsynced writes, so a power loss can be simulated.
    case trackWrites = "track-writes"
    /// Lose power now (no reply: the worker exits with ``PowerLoss/exitCode``), or
    /// arm a later power loss (`powerLoss`).
    case powerLoss = "power-loss"
}

/// When and how the power goes out, as sent to the worker.
public struct PowerLossOrder: Codable, Sendable, Equatable {
    public var mode: PowerLossStep.Mode
    public var atSync: Int?
    public var afterWrites: Int?
    public var atPoint: String?
    public var seed: UInt64

    public init(step: PowerLossStep, seed: UInt64) {
        mode = step.mode
        self.seed = seed
        switch step.moment {
        case .now: break
        case let .atSync(count): atSync = count
        case let .afterWrites(count): afterWrites = count
        case let .atPoint(point): atPoint = point
        }
    }

    public var isNow: Bool { atSync == nil && afterWrites == nil && atPoint == nil }

    /// The id a cut at a fault point is armed under, and what `disarm` names to call
    /// off a cut waiting for its moment.
    public static let pointID = "power-loss"
}

public struct WorkerRequest: Codable, Sendable, Equatable {
    public var id: Int
    public var op: WorkerOperation
    public var name: String?
    public var arguments: [String: ScenarioValue]?
    public var fault: ArmedFault?
    public var powerLoss: PowerLossOrder?
    /// For `track-writes`: keep sector-level detail so writes can be torn.
    public var torn: Bool?

    public init(id: Int = 0, op: WorkerOperation, name: String? = nil, arguments: [String: ScenarioValue]? = nil,
                fault: ArmedFault? = nil, powerLoss: PowerLossOrder? = nil, torn: Bool? = nil) {
        self.id = id
        self.op = op
        self.name = name
        self.arguments = arguments
        self.fault = fault
        self.powerLoss = powerLoss
        self.torn = torn
    }
}

/// An in-process fault that fired, as the worker reports it: which armed fault (its
/// id), at which of its hits, on what.
public struct FaultFiring: Codable, Sendable, Equatable {
    /// The armed fault's id (``ArmedFault/id``).
    public var id: String
    public var kind: String
    /// The fault's hit at which it fired, 1-based.
    public var hit: Int
    /// What it hit: the fault point's name, or the logical storage file (`wal`).
    public var target: String
    /// What it did: `fail`, `write of app.sqlite-wal → result code 13`.
    public var detail: String
    /// The fault's count of firings, this one included.
    public var fired: Int

    public init(id: String, kind: String, hit: Int, target: String, detail: String, fired: Int) {
        self.id = id
        self.kind = kind
        self.hit = hit
        self.target = target
        self.detail = detail
        self.fired = fired
    }
}

/// A line the worker writes between a request and its reply, as it happens: a write
/// acknowledged or attempted, a record removed, a fault fired.
public struct WorkerEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case ack, attempt, remove, fired }
    public var event: Kind
    /// For `ack`, `attempt`, `remove`: the record key (`table:id`).
    public var key: String?
    /// For `fired`.
    public var firing: FaultFiring?

    public init(event: Kind, key: String) {
        self.event = event
        self.key = key
    }

    public init(fired firing: FaultFiring) {
        event = .fired
        self.firing = firing
    }
}

public struct WorkerReply: Codable, Sendable, Equatable {
    public var id: Int
    public var ok: Bool
    /// The action's or probe's result.
    public var value: ScenarioValue?
    /// The technical error, when `ok` is false.
    public var error: String?
    /// What the app showed the user for this failure, if anything.
    public var userMessage: String?
    /// Record keys (`table:id`) whose writes the app acknowledged as saved.
    public var acknowledged: [String]?
    /// Record keys the action tried to write, acknowledged or not.
    public var attempted: [String]?
    /// Record keys whose removal the app acknowledged.
    public var removed: [String]?
    /// True when this was a successful user-level read (recovery is measured to it).
    public var isRead: Bool?
    /// Faults that fired while serving this request and were not sent as events.
    public var firings: [FaultFiring]?
    /// Where every armed fault stands after this request.
    public var faults: [FaultProgress]?
    /// Writes and syncs of the store's files so far in this worker, while write
    /// tracking is on (what a crash sweep enumerates).
    public var trackedWrites: Int?
    public var trackedSyncs: Int?
    /// For `snapshot`: table → record key → canonical row text.
    public var snapshot: [String: [String: String]]?

    public init(id: Int, ok: Bool) {
        self.id = id
        self.ok = ok
    }
}

/// The first line a worker writes.
public struct WorkerReady: Codable, Sendable, Equatable {
    public var event = "ready"
    /// Logical file names a scenario may aim at → paths relative to the data directory.
    public var files: [String: String]
    /// The actions and probes the target answers, for validation and `--help` text.
    public var actions: [String]
    public var probes: [String]
    public var pid: Int32

    public init(files: [String: String], actions: [String], probes: [String], pid: Int32) {
        self.files = files
        self.actions = actions
        self.probes = probes
        self.pid = pid
    }
}
