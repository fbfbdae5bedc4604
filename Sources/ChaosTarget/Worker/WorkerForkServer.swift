internal import CForkServer
import Foundation

/// The worker side of the fork server (`TARGET --fork-server`, stdin a socket): the
/// process starts once, warms up what every worker does first (its declaration, the
/// protocol's JSON), then forks a worker for each launch the controller asks for. A
/// forked worker skips what a new process pays at every start — loading and relocating
/// the binary, the Swift runtime's first look-ups of its types — which is most of a
/// crash trial's time. The mechanism is C (`CForkServer`); the controller side is
/// `ForkServer` in Chaos.
package enum WorkerForkServer {
    /// The first argument that makes a target a fork server.
    package static let flag = "--fork-server"

    /// Serves on stdin until the controller goes away: returns nil in the server (it
    /// should exit), or a forked worker's arguments in each child.
    @MainActor
    package static func serve<Target: ChaosTarget>(_ target: Target.Type) -> [String]? {
        warmUp(target)
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var argc: Int32 = 0
        guard chaos_fork_server_serve(0, &argv, &argc) == 0, let argv else { return nil }
        var arguments: [String] = []
        for index in 0..<Int(argc) {
            if let word = argv[index] { arguments.append(String(cString: word)) }
        }
        // `--env NAME=VALUE` and `--folder N=PATH` pairs first: what a spawned worker
        // would have in its environment for this launch (the case's mark, its clock's
        // file), and the folders it finds open (the case's clock folder).
        while arguments.count >= 2, arguments[0] == environmentFlag || arguments[0] == folderFlag {
            let pair = arguments[1].split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2, arguments[0] == environmentFlag { setenv(pair[0], pair[1], 1) }
            if pair.count == 2, arguments[0] == folderFlag, let descriptor = Int32(pair[0]) { openFolder(pair[1], at: descriptor) }
            arguments.removeFirst(2)
        }
        return arguments
    }

    /// Sets one variable of a forked worker's environment: `--env NAME=VALUE`.
    package static let environmentFlag = "--env"
    /// Opens a folder at a descriptor of a forked worker: `--folder N=PATH`.
    package static let folderFlag = "--folder"

    /// Opens `path` at `descriptor`, inherited by what the worker runs (not close-on-exec).
    private static func openFolder(_ path: String, at descriptor: Int32) {
        let opened = open(path, O_RDONLY | O_DIRECTORY)
        guard opened >= 0 else { return }
        if opened != descriptor {
            dup2(opened, descriptor)
            close(opened)
        }
    }

    /// What every worker does first, done once before the forks: the ready line's
    /// encoding, a request's decoding, a reply's and an event's encoding.
    @MainActor
    private static func warmUp<Target: ChaosTarget>(_ target: Target.Type) {
        target.warmUpBeforeForking()
        _ = try? JSONEncoder().encode(WorkerReady(pid: 0, libcSeamMissing: nil))
        let sample = #"{"id":1,"op":"perform","name":"x","arguments":{"count":1}}"#
        _ = try? JSONDecoder().decode(WorkerRequest.self, from: Data(sample.utf8))
        _ = try? JSONEncoder().encode(WorkerReply(id: 1, .value(.map(["mode": .string("persistent")]))))
        _ = try? JSONEncoder().encode(WorkerEvent(event: .ack, key: "x:1"))
        // An armed fault's request (the catalog's in-process kinds, looked up once), and
        // replies of each kind of answer with a status that says all it may.
        let armed = ArmedFault(id: "warm", fault: IOErrorFault(operation: IOErrorFault.anyOperation), trigger: Trigger(after: 1, times: 1), seed: 1)
        if let data = try? JSONEncoder().encode(WorkerRequest(.arm(armed))) {
            _ = try? JSONDecoder().decode(WorkerRequest.self, from: data)
        }
        // Every other field a request may carry (a sweep's track-writes and power-loss, a
        // probe), each first decoded in every forked worker otherwise: measured, a crash
        // trial's workers spent 0.4 ms each decoding four small requests.
        let every: [WorkerRequest.Ask] = [
            .perform("warm", arguments: ["count": .int(1), "name": .string("x"), "on": .bool(true)]),
            .powerLoss(PowerLossOrder(mode: .keep, atSync: 1, afterWrites: 1, atPoint: "x", seed: 1)),
            .trackWrites(torn: true, seam: .vfs), .probe("surfaced"), .disarm("warm"), .stop,
        ]
        for request in every.map({ WorkerRequest($0) }) {
            if let data = try? JSONEncoder().encode(request) { _ = try? JSONDecoder().decode(WorkerRequest.self, from: data) }
        }
        let status = WorkerStatus(faults: [FaultStanding(id: "warm", counter: armed.counter)], tracked: TrackedIO(writes: 1, syncs: 1),
                                  pointsHit: ["store/warm"], reach: StorageReach(vfsOpens: 1, libcOpens: 0, libcCalls: 0),
                                  storeSettings: StoreSettings(synchronous: "full", wal: true))
        let answers: [WorkerReply.Answer] = [
            .actionFailed(userMessage: "m", error: "e", value: .int(1)), .actionDone(value: .bool(true), isRead: true),
            .snapshot(["warm": ["k": "v"]]), .failed(.app, error: "e"), .done,
        ]
        for answer in answers { _ = try? JSONEncoder().encode(WorkerReply(id: 2, answer, status: status)) }
        // The counts a reply carries (read, not changed).
        _ = StorageReach.now()
        // What arming asks of each kind a worker carries out (`WorkerFaults.arm`).
        for kind in FaultCatalog.inProcess {
            _ = kind as? any PointFault.Type
            _ = kind as? any StorageFault.Type
        }
        _ = try? FileManager.default.createDirectory(at: FileManager.default.temporaryDirectory, withIntermediateDirectories: true)
        _ = try? FileManager.default.attributesOfItem(atPath: FileManager.default.temporaryDirectory.path)
    }
}
