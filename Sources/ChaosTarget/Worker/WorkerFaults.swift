import FaultPoints
import Foundation
import Synchronization

/// The worker's table of armed in-process faults: it arms each in its seam (the fault
/// VFS for storage faults, the ``FaultRegistry`` for point faults), reports each firing
/// as it happens, and says where every fault stands after each request.
///
/// A firing is sent as an event line at once (so a worker that traps right after
/// loses none), for the first ``streamedFiringsPerFault`` firings of each fault in
/// this process; after those, the fault's counter alone tells how often it fired.
package final class WorkerFaults: Sendable {
    package static let streamedFiringsPerFault = 100

    private struct PointArmed {
        let kind: String
        let state: TriggerState
    }

    private let points = Mutex<[String: PointArmed]>([:])
    private let dataDirectory: URL
    private let sqliteLibraries: Int
    /// The target's declared files, which a storage fault's `file:` names.
    private let files: [String: String]
    /// The declared files a locked device still serves.
    private let unprotected: [String]
    private let context: PointFaultContext
    private let emit: @Sendable (FaultFiring) -> Void

    /// `sqliteLibraries`: how many copies of SQLite the target declares; a storage fault
    /// whose step names no `seam:` goes through the VFS when there is one, libc otherwise.
    package init(dataDirectory: URL, sqliteLibraries: Int = 1, files: [String: String] = [:], unprotected: [String] = [],
                 context: PointFaultContext, emit: @escaping @Sendable (FaultFiring) -> Void) {
        self.dataDirectory = dataDirectory
        self.sqliteLibraries = sqliteLibraries
        self.files = files
        self.unprotected = unprotected
        self.context = context
        self.emit = emit
        StorageHook.onFiring = { firing, fired in
            guard fired <= Self.streamedFiringsPerFault else { return }
            let detail = "\(firing.operation) of \(URL(fileURLWithPath: firing.path).lastPathComponent)"
                + (firing.resultCode == 0 ? " delayed" : " → \(firing.outcome)")
            emit(FaultFiring(id: firing.id, kind: firing.kind, hit: firing.count, target: firing.file, detail: detail,
                             fired: fired, seam: firing.seam ?? .vfs))
        }
    }

    package func arm(_ armed: ArmedFault) throws {
        switch armed.fault.base {
        case let fault as any PointFault:
            arm(armed, fault)
        case is any StorageFault:
            try StorageHook.arm(armed, under: dataDirectory.path,
                                  seam: StorageSeam.resolved(armed.trigger.seam, sqliteLibraries: sqliteLibraries), files: files,
                                  unprotected: unprotected)
        default:
            throw TargetError("'\(armed.fault.kind)' is not carried out in the app's process")
        }
    }

    private func arm(_ armed: ArmedFault, _ fault: any PointFault) {
        let state = TriggerState(trigger: armed.trigger, seed: armed.seed, counter: armed.counter)
        let action = fault.action(context)
        let (id, kind, emit) = (armed.id, armed.fault.kind, self.emit)
        points.withLock { $0[id] = PointArmed(kind: kind, state: state) }
        FaultRegistry.shared.arm(fault.point, id: id) { point, _ in
            guard state.hit() else { return nil }
            let counter = state.snapshot
            if counter.fired <= Self.streamedFiringsPerFault {
                emit(FaultFiring(id: id, kind: kind, hit: counter.hits, target: point.name, detail: action.label,
                                 fired: counter.fired))
            }
            return action
        }
    }

    /// Disarms the fault `id`, or every fault when nil.
    package func disarm(_ id: String?) {
        guard let id else {
            points.withLock { $0.removeAll() }
            FaultRegistry.shared.reset()
            StorageHook.disarmAll()
            return
        }
        if points.withLock({ $0.removeValue(forKey: id) }) != nil { FaultRegistry.shared.disarm(id) }
        StorageHook.disarm(id: id)
    }

    /// Where every armed fault stands.
    package var progress: [FaultStanding] {
        let pointProgress = points.withLock { $0.map { FaultStanding(id: $0.key, counter: $0.value.state.snapshot) } }
        return (pointProgress + StorageHook.progress()).sorted { $0.id < $1.id }
    }
}
