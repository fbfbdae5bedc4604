import Foundation

/// The version of the worker protocol: the controller refuses at once a worker whose
/// ready line names another (a target built against another Chaos), naming both, rather
/// than misread its lines. It changes with any change a reader of the other version would
/// misread: a field's meaning, a request's or reply's shape.
package enum WorkerProtocolVersion {
    /// The version this Chaos and its ChaosTarget speak: 2, whose ready line names its
    /// version and whose failed reply says what failed (``WorkerReply/Answer/failure``).
    package static let current = 2
    /// What a ready line without a `protocol` field speaks: the protocol before versions.
    package static let unversioned = 1

    /// Why the controller refuses a worker that speaks `version`; nil when it speaks
    /// ``current``.
    package static func mismatch(_ version: Int) -> String? {
        guard version != current else { return nil }
        return "the target speaks worker protocol \(version); this chaos speaks \(current): "
            + "rebuild the target against this Chaos (docs/TARGETS.md §5)"
    }
}

/// The wire protocol between the controller (`chaos run`) and a worker process:
/// JSON lines over the worker's stdin and stdout, one request, one reply, in order.
///
/// The worker writes `{"event":"ready","protocol":N,...}` once it is ready (``WorkerReady``:
/// the protocol's version, ``WorkerProtocolVersion``, and what changes from one launch to
/// the next), then answers each request with a reply carrying the same `id`
/// (``WorkerReply``: the answer, and where the worker stands after it); what the target
/// is made of it says when asked (`describe`). Between a request and its reply it
/// may write event lines (``WorkerEvent``): writes acknowledged and faults fired, as
/// they happen, so that a worker that dies in the middle of a request loses none.
/// Anything the worker prints that is not a protocol line must go to stderr, which
/// the controller keeps whole.
package enum WorkerOperation: String, Codable, Sendable {
    /// What the target is made of: replies with its ``TargetDeclaration`` (asked once,
    /// when a command binds its target).
    case describe
    /// Start the app: open the store, recover as needed. Replies with the health.
    case launch
    /// A user-level action, such as `favorites.add`.
    case perform
    /// A read-only question about the app's state, such as `health`.
    case probe
    /// A canonical dump of all user data.
    case snapshot
    /// Arm an in-process fault (``WorkerRequest/Ask/arm(_:)``) in its seam.
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
    /// Count the hits of every fault point from now on, and name the points hit in every
    /// reply (``WorkerStatus/pointsHit``): what `chaos hunt` learns from its plain first run.
    case countPoints = "count-points"
    /// The app goes to the background: the target's ``ChaosTarget/willSuspend()`` now;
    /// the controller stops the process (SIGSTOP) once the notice has passed.
    case suspend
    /// Back in the foreground after a SIGCONT: the target's ``ChaosTarget/didResume()``.
    case resume
    /// The suspension comes while the app saves: at its next write lock on a file of its
    /// shared container (``SuspensionMoment``), in the middle of a later request.
    case suspendWhileSaving = "suspend-while-saving"
    /// The peer worker takes the shared store's write lock (``PeerWriteOrder``).
    case peerWrite = "peer-write"
}

/// When and how the power goes out, as sent to the worker.
package struct PowerLossOrder: Codable, Sendable, Equatable {
    package var mode: PowerLoss.Mode
    package var atSync: Int?
    package var afterWrites: Int?
    package var atPoint: String?
    package var seed: UInt64

    package init(mode: PowerLoss.Mode, atSync: Int? = nil, afterWrites: Int? = nil, atPoint: String? = nil, seed: UInt64) {
        self.mode = mode
        self.atSync = atSync
        self.afterWrites = afterWrites
        self.atPoint = atPoint
        self.seed = seed
    }

    /// Images to take besides (a crash sweep's, ``PowerLossImage``); the order's own
    /// moment is then one no workload reaches.
    package var images: [PowerLossImage]?
    /// The end comes when the app's resident memory passes a bound (`memory-kill`), not
    /// from the power: the same end, which keeps every write.
    package var memory: MemoryBound?

    package var isNow: Bool { atSync == nil && afterWrites == nil && atPoint == nil && images == nil && memory == nil }

    /// What ends the app, in the report's words: "the power went out", "the system
    /// killed the app for its memory".
    package var endWords: String { memory == nil ? "the power went out" : "the system killed the app for its memory" }
    /// The end as a noun: "the power loss", "the memory kill".
    package var endNoun: String { memory == nil ? "the power loss" : "the memory kill" }

    /// The id a cut at a fault point is armed under, and what `disarm` names to call
    /// off a cut waiting for its moment.
    package static let pointID = "power-loss"
}

/// A bound on the app's resident memory, past which the system kills it.
package enum MemoryBound: Codable, Sendable, Equatable {
    /// Bytes above the resident memory when the order is armed.
    case growth(Int64)
    /// Bytes of the whole process.
    case above(Int64)
}

/// A moment a cut could come, and the folder to take its image in: what the data folder
/// would be after a cut at that sync (before it) or right after that write, counted from
/// when the order is armed, in `mode` with `seed`. A crash sweep takes all of its trials'
/// images in one run of the workload, then launches the app once on each.
package struct PowerLossImage: Codable, Sendable, Equatable {
    package var atSync: Int?
    package var afterWrites: Int?
    package var mode: PowerLoss.Mode
    package var seed: UInt64
    package var directory: String

    package init(atSync: Int? = nil, afterWrites: Int? = nil, mode: PowerLoss.Mode, seed: UInt64, directory: String) {
        self.atSync = atSync
        self.afterWrites = afterWrites
        self.mode = mode
        self.seed = seed
        self.directory = directory
    }
}

/// An in-process fault that fired, as the worker reports it: which armed fault (its
/// id), at which of its hits, on what.
package struct FaultFiring: Codable, Sendable, Equatable {
    /// The armed fault's id (``ArmedFault/id``).
    package var id: String
    package var kind: String
    /// The fault's hit at which it fired, 1-based.
    package var hit: Int
    /// What it hit: the fault point's name, or the logical storage file (`wal`).
    package var target: String
    /// What it did: `fail`, `write of app.sqlite-wal → result code 13`.
    package var detail: String
    /// The fault's count of firings, this one included.
    package var fired: Int
    /// A storage fault: the seam that carried it out (nil: a point fault, or the VFS of an older worker).
    package var seam: StorageSeam?

    package init(id: String, kind: String, hit: Int, target: String, detail: String, fired: Int, seam: StorageSeam? = nil) {
        self.id = id
        self.kind = kind
        self.hit = hit
        self.target = target
        self.detail = detail
        self.fired = fired
        self.seam = seam
    }
}

/// A line the worker writes between a request and its reply, as it happens: a write
/// acknowledged or attempted, a record about to be removed or removed, a fault fired.
package struct WorkerEvent: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable { case ack, attempt, removing, remove, fired, log, suspending }
    package var event: Kind
    /// For `ack`, `attempt`, `removing`, `remove`: the record key (`table:id`); for
    /// `suspending`, the path of the shared file the app took a write lock on.
    package var key: String?
    /// For `ack`: the digest of the record's value (``RecordDigest``), when the app gave it.
    package var digest: String?
    /// For `fired`.
    package var firing: FaultFiring?
    /// For `log`: a record the app logged through swift-log.
    package var log: AppLogRecord?
    /// While a run takes crash images: the tracked writes and syncs counted when the
    /// event was told, so a trial knows which events came before its cut.
    package var io: [Int]?

    package init(event: Kind, key: String) {
        self.event = event
        self.key = key
    }

    package init(fired firing: FaultFiring) {
        event = .fired
        self.firing = firing
    }

    package init(log record: AppLogRecord) {
        event = .log
        log = record
    }

    /// The line of an event that names a record and nothing else, byte for byte what
    /// `JSONEncoder` with sorted keys writes (`{"event":"ack","key":"favorite:1"}`), made
    /// without it; nil for any other event, or a key JSON would escape. Most lines of a
    /// sweep's trial are these: each cost a coder in the worker and one in the controller.
    package var plainLine: String? {
        guard let key, firing == nil, log == nil, io == nil, key.utf8.allSatisfy(Self.isPlain),
              digest?.utf8.allSatisfy(Self.isPlain) ?? true else { return nil }
        let head = digest.map { #"{"digest":""# + $0 + #"","event":""# } ?? #"{"event":""#
        return head + event.rawValue + #"","key":""# + key + #""}"#
    }

    /// Reads a line ``plainLine`` made; nil for any other line (a decoder reads those).
    package static func plain(line: String) -> WorkerEvent? {
        let head = #"{"event":""#, middle = #"","key":""#, tail = #""}"#, digestHead = #"{"digest":""#
        var digest: String?
        var line = Substring(line)
        if line.hasPrefix(digestHead) {
            // `{"digest":"D","event":"ack","key":"K"}`: the digest is hex, so it ends at the first quote.
            let rest = line.dropFirst(digestHead.count)
            guard let quote = rest.firstIndex(of: "\""), rest[quote...].hasPrefix(#"","event":""#) else { return nil }
            digest = String(rest[..<quote])
            line = Substring("{" + rest[rest.index(after: quote)...].dropFirst())
        }
        guard line.hasPrefix(head), line.hasSuffix(tail) else { return nil }
        let body = line.dropFirst(head.count).dropLast(tail.count)
        guard let split = body.range(of: middle) else { return nil }
        let key = body[split.upperBound...]
        guard let kind = Kind(rawValue: String(body[..<split.lowerBound])), kind != .fired, kind != .log,
              key.utf8.allSatisfy(isPlain), digest == nil || kind == .ack else { return nil }
        var event = WorkerEvent(event: kind, key: String(key))
        event.digest = digest
        return event
    }

    /// A byte JSON writes as it is in a string: printable ASCII but `"`, `\` and `/`
    /// (which `JSONEncoder` writes `\/`). Anything else goes through the coders.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "/")
    }
}
