import Foundation

/// The wire protocol between the controller (`chaos run`) and a worker process:
/// JSON lines over the worker's stdin and stdout, one request, one reply, in order.
///
/// The worker writes `{"event":"ready",...}` once it is ready, then answers each
/// request with a reply carrying the same `id`. Anything the worker prints that is not
/// a protocol line must go to stderr, which the controller keeps whole.
public enum WorkerOperation: String, Codable, Sendable {
    /// Start the app: open the store, recover as needed. Replies with the health.
    case launch
    /// A user-level action, such as `favorites.add`.
    case perform
    /// A read-only question about the app's state, such as `health`.
    case probe
    /// A canonical dump of all user data.
    case snapshot
    /// Arm a fault point in the worker's process-global registry.
    case arm
    /// Disarm a fault point (or all of them when `name` is nil).
    case disarm
    /// Graceful stop: the app closes its store; the worker exits 0 after replying.
    case stop
    /// Arm a storage fault in the fault VFS (`storage`).
    case armStorage = "arm-storage"
    /// Disarm storage faults of kind `name` (all when nil).
    case disarmStorage = "disarm-storage"
    /// Start keeping the undo log of unsynced writes, so a power loss can be simulated.
    case trackWrites = "track-writes"
    /// Lose power now (no reply: the worker exits with ``PowerLossOrder/exitCode``), or
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
}

/// A line the worker writes between a request and its reply: a write acknowledged
/// or attempted as it happens, so a power cut in the middle of an action loses none.
public struct WorkerEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case ack, attempt, remove }
    public var event: Kind
    public var key: String

    public init(event: Kind, key: String) {
        self.event = event
        self.key = key
    }
}

public struct WorkerRequest: Codable, Sendable, Equatable {
    public var id: Int
    public var op: WorkerOperation
    public var name: String?
    public var arguments: [String: ScenarioValue]?
    public var arming: PointArming?
    public var storage: StorageFaultRule?
    public var powerLoss: PowerLossOrder?
    /// For `track-writes`: keep sector-level detail so writes can be torn.
    public var torn: Bool?

    public init(id: Int, op: WorkerOperation, name: String? = nil,
                arguments: [String: ScenarioValue]? = nil, arming: PointArming? = nil,
                storage: StorageFaultRule? = nil, powerLoss: PowerLossOrder? = nil, torn: Bool? = nil) {
        self.id = id
        self.op = op
        self.name = name
        self.arguments = arguments
        self.arming = arming
        self.storage = storage
        self.powerLoss = powerLoss
        self.torn = torn
    }
}

/// What a fault point does when armed, as sent to the worker.
public struct PointArming: Codable, Sendable, Equatable {
    public enum Effect: String, Codable, Sendable {
        /// The hit throws an injected error.
        case fail
        /// The hit waits `delayMs`.
        case delay
        /// The target's own effect at that point (a reset context, for example).
        case targetEffect = "target-effect"
    }

    public var point: String
    public var effect: Effect
    public var message: String?
    public var delayMs: Int?
    /// For `target-effect`: which one (`reset-context`).
    public var targetEffect: String?
    public var trigger: Trigger
    public var seed: UInt64

    public init(point: String, effect: Effect, message: String? = nil, delayMs: Int? = nil,
                targetEffect: String? = nil, trigger: Trigger, seed: UInt64) {
        self.point = point
        self.effect = effect
        self.message = message
        self.delayMs = delayMs
        self.targetEffect = targetEffect
        self.trigger = trigger
        self.seed = seed
    }
}

/// A fault point firing, reported by the worker in the reply that followed it.
public struct PointFiring: Codable, Sendable, Equatable {
    public var point: String
    public var hit: Int
    public var action: String
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
    /// Fault points that fired while serving this request.
    public var firings: [PointFiring]?
    /// Storage faults that fired in the VFS while serving this request.
    public var storageFirings: [StorageFiring]?
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
