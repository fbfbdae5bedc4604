import FaultPoints
import Foundation

/// The worker side of the protocol: reads requests on stdin, serves them with a
/// ``ChaosTarget``, writes replies on stdout, one flushed line each (a child's
/// buffered output is lost when it traps).
@MainActor
public enum WorkerHost {
    /// Serves requests until `stop` or end of input, then returns the exit code.
    public static func run<Target: ChaosTarget>(_ type: Target.Type, context: TargetContext) async -> Int32 {
        // Every SQLite connection of the target goes through the fault VFS.
        do {
            try SQLiteFaultVFS.register()
        } catch {
            FileHandle.standardError.write(Data("chaos worker: cannot register the fault VFS: \(error)\n".utf8))
            return 2
        }
        let target = Target(context: context)
        let ready = WorkerReady(files: Target.files, actions: Target.actions.sorted(),
                                probes: Target.probes.sorted(), pid: getpid())
        write(ready)
        var firingsSeen = 0
        var storageFiringsSeen = 0
        var trackingWrites = false
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            guard let data = line.data(using: .utf8),
                  let request = try? JSONDecoder().decode(WorkerRequest.self, from: data) else {
                var reply = WorkerReply(id: -1, ok: false)
                reply.error = "not a request: \(line.prefix(200))"
                write(reply)
                continue
            }
            var reply = await serve(request, target: target, dataDirectory: context.dataDirectory)
            if request.op == .trackWrites { trackingWrites = true }
            let firings = FaultRegistry.shared.firings
            if firings.count > firingsSeen {
                reply.firings = firings[firingsSeen...].map { PointFiring(point: $0.point, hit: $0.hit, action: $0.action) }
                firingsSeen = firings.count
            }
            if trackingWrites {
                let stats = PowerLoss.stats()
                reply.trackedWrites = stats.writes
                reply.trackedSyncs = stats.syncs
            }
            let storageFirings = StorageFaults.firings()
            if storageFirings.count > storageFiringsSeen {
                reply.storageFirings = Array(storageFirings[storageFiringsSeen...])
                storageFiringsSeen = storageFirings.count
            }
            write(reply)
            if request.op == .stop { return 0 }
        }
        await target.stop()
        return 0
    }

    private static func serve<Target: ChaosTarget>(_ request: WorkerRequest, target: Target,
                                                   dataDirectory: URL) async -> WorkerReply {
        var reply = WorkerReply(id: request.id, ok: true)
        do {
            switch request.op {
            case .launch:
                reply.value = await target.launch()
            case .perform:
                let result = try await target.perform(request.name ?? "", arguments: request.arguments ?? [:])
                reply.ok = result.ok
                reply.value = result.value
                reply.userMessage = result.userMessage
                reply.error = result.error
                reply.acknowledged = result.acknowledged
                reply.attempted = result.attempted
                reply.removed = result.removed
                reply.isRead = result.isRead
            case .probe:
                reply.value = try await target.probe(request.name ?? "")
            case .snapshot:
                reply.snapshot = try await target.snapshot()
            case .arm:
                guard let arming = request.arming else { throw TargetError("arm without a point") }
                arm(arming, target: target)
            case .disarm:
                if let name = request.name { FaultRegistry.shared.disarm(name) } else { FaultRegistry.shared.reset() }
            case .stop:
                await target.stop()
            case .armStorage:
                guard var rule = request.storage else { throw TargetError("arm-storage without a rule") }
                // Only the app's own files count, never another database of the process.
                rule.directory = rule.directory ?? dataDirectory.path
                try StorageFaults.arm(rule)
            case .disarmStorage:
                if let name = request.name, let kind = StorageFaultRule.Kind(rawValue: name) {
                    StorageFaults.disarm(kind: kind)
                } else {
                    StorageFaults.disarmAll()
                }
            case .trackWrites:
                PowerLoss.enable(torn: request.torn ?? false, under: dataDirectory.path)
            case .powerLoss:
                guard let order = request.powerLoss else { throw TargetError("power-loss without an order") }
                losePower(order)
            }
        } catch let error as TargetError {
            reply.ok = false
            reply.error = "target: \(error.description)"
        } catch {
            reply.ok = false
            reply.error = String(describing: error)
        }
        return reply
    }

    /// Now: the process ends here, with the unsynced writes dropped, kept or torn.
    /// Later: at the Nth sync or write of the store's files, or at a fault point.
    private static func losePower(_ order: PowerLossOrder) {
        let mode = PowerLoss.Mode(rawValue: order.mode.rawValue) ?? .drop
        let seed = order.seed
        if order.isNow {
            fflush(nil)
            PowerLoss.crashNow(mode: mode, seed: seed)
        }
        if let point = order.atPoint {
            FaultRegistry.shared.arm(point) { _ in .call { _ in PowerLoss.crashNow(mode: mode, seed: seed) } }
        } else {
            PowerLoss.arm(atSync: order.atSync, afterWrites: order.afterWrites, mode: mode, seed: seed)
        }
    }

    /// Tells the controller at once that a write was attempted, acknowledged or removed:
    /// if the power goes out in the middle of an action, what was acknowledged before
    /// the cut is known.
    public static func record(_ event: WorkerEvent) {
        write(event)
    }

    private static func arm<Target: ChaosTarget>(_ arming: PointArming, target: Target) {
        let state = TriggerState(trigger: arming.trigger, seed: arming.seed)
        let action: FaultAction
        switch arming.effect {
        case .fail:
            action = .fail(message: arming.message ?? "injected failure")
        case .delay:
            action = .delay(.milliseconds(arming.delayMs ?? 0))
        case .targetEffect:
            let effect = arming.targetEffect ?? ""
            action = .call { point in target.applyEffect(effect, at: point.name) }
        }
        FaultRegistry.shared.arm(arming.point) { hit in state.shouldFire(hit: hit) ? action : nil }
    }

    private static func write<Value: Encodable>(_ value: Value) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let line = String(data: data, encoding: .utf8) else { return }
        print(line)
        fflush(nil)
    }
}
