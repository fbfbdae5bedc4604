internal import CChaosVFS
import FaultPoints
import Foundation

/// The worker side of the protocol: reads requests on stdin, serves them with a
/// ``ChaosTarget``, writes replies on stdout, one whole line each (a child's buffered
/// output is lost when it traps). ``ChaosTarget/serve(arguments:)`` is its entry.
@MainActor
package enum WorkerHost {
    /// Serves requests until `stop` or end of input, then returns the exit code.
    package static func run<Target: ChaosTarget>(_ type: Target.Type, context: TargetContext) async -> Int32 {
        // Every SQLite connection of the target goes through the fault VFS: the system
        // library's, and those of any copy the target names.
        do {
            try SQLiteFaultVFS.register()
            for library in Target.sqlite { try library.install() }
        } catch {
            FileHandle.standardError.write(Data("chaos worker: cannot register the fault VFS: \(error)\n".utf8))
            return 2
        }
        // Before the target exists: a `Logger` keeps the handler it was made with.
        if Target.logging == .captured { ChaosLogHandler.bootstrap() }
        // The data folder is there before the target is made: no target creates it.
        try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        let watching = watchDataFolder(plainFiles: Target.sqlite.isEmpty, dataDirectory: context.dataDirectory)
        let target = Target(context: context)
        let faults = WorkerFaults(
            dataDirectory: context.dataDirectory, sqliteLibraries: Target.sqlite.count, files: Target.files,
            unprotected: Target.unprotectedFiles,
            context: PointFaultContext { effect, point in target.applyEffect(effect, at: point) },
            emit: { WorkerOutput.write(WorkerEvent(fired: $0)) })
        WorkerOutput.write(WorkerReady(pid: getpid(), libcSeamMissing: LibcSeam.whyNotLoaded))
        // What the seams saw before the first request (a fork server's warm-up) is not the app's.
        let dataPrefix = StoragePathPrefix.of(directory: context.dataDirectory.path)
        _ = SeamCall.take(prefix: dataPrefix)
        var trackingWrites = false
        var countingPoints = false
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            let request: WorkerRequest
            do { request = try JSONDecoder().decode(WorkerRequest.self, from: Data(line.utf8)) } catch {
                // A known op without what it needs is answered as that request; anything
                // else is not a request at all.
                let malformed = error as? WorkerRequest.Malformed
                let refusal = WorkerReply.Answer.failed(malformed == nil ? .control : .target,
                                                        error: malformed?.description ?? "not a request: \(line.prefix(200))")
                WorkerOutput.write(WorkerReply(id: malformed?.id ?? -1, refusal))
                continue
            }
            let answer = await serve(request, target: target, faults: faults, dataDirectory: context.dataDirectory)
            if request.op == .trackWrites { trackingWrites = true }
            if request.op == .countPoints { countingPoints = true }
            let status = currentStatus(faults: faults, trackingWrites: trackingWrites, countingPoints: countingPoints,
                                       watching: watching, dataPrefix: dataPrefix)
            WorkerOutput.write(WorkerReply(id: request.id, answer, status: status))
            if request.op == .stop { return 0 }
        }
        await target.stop()
        return 0
    }

    private static func serve<Target: ChaosTarget>(_ request: WorkerRequest, target: Target, faults: WorkerFaults,
                                                   dataDirectory: URL) async -> WorkerReply.Answer {
        do {
            switch request.ask {
            case .describe:
                return .declaration(TargetDeclaration(target: Target.self))
            case .launch:
                let health = await target.launch()
                TargetHistory.launched = health
                return .value(health.value)
            case let .perform(name, arguments):
                return WorkerReply.Answer(try await perform(name, arguments, on: target))
            case let .probe(name):
                return .value(try await probe(name, on: target))
            case .snapshot:
                return .snapshot(try await target.snapshot())
            case let .arm(fault):
                try faults.arm(fault)
            case let .disarm(id):
                if id == nil || id == PowerLossOrder.pointID {
                    PowerLoss.disarm()
                    MemoryWatch.disarm()
                    FaultRegistry.shared.disarm(PowerLossOrder.pointID)
                }
                if id != PowerLossOrder.pointID { faults.disarm(id) }
            case .stop:
                await target.stop()
            case let .trackWrites(torn, seam):
                try PowerLoss.enable(torn: torn, under: dataDirectory.path, seam: StorageSeam.resolved(seam, sqliteLibraries: Target.sqlite.count))
            case .countPoints:
                FaultRegistry.shared.setCounting(true)
            case .suspend:
                target.willSuspend()
            case .resume:
                target.didResume()
            case .suspendWhileSaving:
                let shared = Target.sharedContainer.compactMap { Target.files[$0] }.map { dataDirectory.appendingPathComponent($0).path }
                guard !Target.sqlite.isEmpty, SuspensionMoment.arm(
                    paths: shared, willSuspend: { target.willSuspend() }, didResume: { target.didResume() }, emit: { WorkerOutput.write($0) })
                else { return .failed(.target, error: "no save to suspend in: the target declares no SQLite store in a shared container") }
            case let .powerLoss(order):
                losePower(order)
            case let .peerWrite(order):
                try PeerWrite.carryOut(order, dataDirectory: dataDirectory)
            }
            return .done
        } catch let error as TargetError {
            return .failed(.target, error: error.description)
        } catch {
            return .failed(failure(of: request.op), error: String(describing: error))
        }
    }

    /// Where the worker stands after a request: the points hit while they are counted,
    /// where each armed fault stands, the writes and syncs while they are tracked, which
    /// seam saw the app's files while storage faults are armed (or the libc seam watches
    /// a plain-file target's folder), the store's settings, what the seams saw since the
    /// last reply.
    private static func currentStatus(faults: WorkerFaults, trackingWrites: Bool, countingPoints: Bool, watching: Bool,
                                      dataPrefix: String) -> WorkerStatus {
        var status = WorkerStatus()
        if countingPoints { status.pointsHit = FaultRegistry.shared.hitPoints }
        let progress = faults.progress
        status.faults = progress.isEmpty ? nil : progress
        if trackingWrites {
            let stats = PowerLoss.stats()
            status.tracked = TrackedIO(writes: stats.writes, syncs: stats.syncs)
        }
        if !StorageHook.armedIDs.isEmpty || watching { status.reach = StorageReach.now() }
        status.storeSettings = SQLiteFaultVFS.storeSettings
        let calls = SeamCall.take(prefix: dataPrefix)
        status.calls = calls.isEmpty ? nil : calls
        return status
    }

    /// What an error thrown while serving `op` is a failure of: the app's code (a launch,
    /// an action, a probe, a snapshot, a stop), or the worker's own part.
    private static func failure(of op: WorkerOperation) -> WorkerFailure {
        switch op {
        case .launch, .perform, .probe, .snapshot, .stop, .suspend, .resume: .app
        case .describe, .arm, .disarm, .trackWrites, .powerLoss, .countPoints, .suspendWhileSaving, .peerWrite: .control
        }
    }

    /// The action `name`, from the target's own list.
    private static func perform<Target: ChaosTarget>(_ name: String, _ arguments: [String: ScenarioValue],
                                                     on target: Target) async throws -> ActionResult {
        guard let action = Target.actions.first(where: { $0.name == name }) else {
            throw TargetError("unknown action '\(name)'; this target answers: \(Target.actions.map(\.name).sorted().joined(separator: ", "))")
        }
        let result: ActionResult
        do {
            result = try await action.body(target, ActionCall(name: name, arguments: arguments, report: WorkerOutput.write))
        } catch let error as TargetError {
            throw error  // a bad argument: the scenario's problem, not the app's
        } catch {
            result = .failed(error)
        }
        TargetHistory.lastAction = result
        return result
    }

    /// `health`, `surfaced`, or one of the target's own probes.
    private static func probe<Target: ChaosTarget>(_ name: String, on target: Target) async throws -> ScenarioValue {
        switch name {
        case TargetDeclaration.healthProbe: return target.health.value
        case TargetDeclaration.surfacedProbe: return target.surfaced.value
        case TargetDeclaration.claimsProbe: return .map(target.claims.mapValues { .list($0.map(ScenarioValue.string)) })
        default:
            guard let probe = Target.probes.first(where: { $0.name == name }) else {
                throw TargetError("unknown probe '\(name)'; this target answers: \(TargetDeclaration.probes(of: Target.self).joined(separator: ", "))")
            }
            return try await probe.body(target)
        }
    }

    /// Now: the process ends here, with the unsynced writes dropped, kept or torn.
    /// Later: at the Nth sync or write of the store's files, at a fault point, or when
    /// its resident memory passes a bound (``MemoryWatch``).
    private static func losePower(_ order: PowerLossOrder) {
        let mode = order.mode
        let seed = order.seed
        if order.isNow {
            fflush(nil)
            PowerLoss.crashNow(mode: mode, seed: seed)
        }
        _ = PowerLoss.take(order.images ?? [])
        if let memory = order.memory {
            MemoryWatch.arm(memory, seed: seed)
        } else if let point = order.atPoint {
            FaultRegistry.shared.arm(point, id: PowerLossOrder.pointID) { (_: FaultPoint, _: Int) in
                .call { _ in PowerLoss.crashNow(mode: mode, seed: seed) }
            }
        } else {
            PowerLoss.arm(atSync: order.atSync, afterWrites: order.afterWrites, mode: mode, seed: seed)
        }
    }
}

extension WorkerHost {
    /// What the libc seam does from the first call: a target of plain files is seen by it
    /// alone, so it watches the data folder from the start (every case knows what the app
    /// did there, and where else it wrote); so does a case that measures a read-only fault,
    /// whose paths it refuses. Returns whether it watches.
    static func watchDataFolder(plainFiles: Bool, dataDirectory: URL) -> Bool {
        // getenv, not ProcessInfo: a worker forked by its fork server had these set after
        // Foundation cached the server's environment (``WorkerForkServer``).
        var environment: [String: String] = [:]
        for name in [LibcSeam.watchVariable, ReadOnlyPaths.listVariable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        let watching = plainFiles || environment[LibcSeam.watchVariable] == "1"
        if watching { LibcSeam.watch(dataDirectory.path) }
        if ReadOnlyPaths.load(environment: environment, dataDirectory: dataDirectory) {
            LibcSeam.watch(dataDirectory.path)
            StorageHook.refuseReadOnlyPaths()
        }
        return watching
    }
}

extension StorageReach {
    /// The counts as they stand in this process.
    static func now() -> StorageReach {
        var opens: Int64 = 0
        chaos_vfs_counters(&opens, nil, nil, nil)
        let libc = LibcSeam.calls()
        var reach = StorageReach(vfsOpens: Int(opens), libcOpens: libc[.open] ?? 0, libcCalls: libc.values.reduce(0, +))
        let refused = LibcSeam.refused().merging(ReadOnlyPaths.refused(), uniquingKeysWith: +)
        if !refused.isEmpty { reach.libcRefused = Dictionary(uniqueKeysWithValues: refused.map { ($0.key.rawValue, $0.value) }) }
        let outside = LibcSeam.outsideFolders()
        if !outside.isEmpty { reach.outside = outside }
        if LibcSeam.isLoaded { reach.libcChanges = [.write, .truncate, .rename, .delete].reduce(0) { $0 + (libc[$1] ?? 0) } }
        return reach
    }
}
