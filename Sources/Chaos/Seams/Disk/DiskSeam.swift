import ChaosTarget
import Foundation

/// A real full disk: a storage fault whose seam is `tmpfs` (`disk-full` with `mechanism:
/// tmpfs`) fills a small tmpfs mounted over the app's data folder, in a private mount
/// namespace its workers enter (``TmpfsDisk``), so the kernel itself says ENOSPC.
final class DiskSeam: FaultSeam {
    private(set) var tmpfs: TmpfsDisk?
    /// The faults that filled the disk, while its ballast is in place.
    private var filledBy: Set<String> = []

    /// 16 MiB: room for the app's store and backups, small enough to fill in a moment.
    static let sizeBytes = 16 << 20

    func carries(_ fault: AnyFault) -> Bool {
        (fault.base as? any StorageFault)?.seam == .tmpfs
    }

    func setUp(for scenario: Scenario, steps: [FaultStep], in setting: SeamSetting) throws(SeamUnavailable) {
        guard !steps.isEmpty else { return }
        switch TmpfsDisk.mount(over: setting.dataDirectory, sizeBytes: Self.sizeBytes,
                               stderrFile: setting.scratch.appendingPathComponent("tmpfs.stderr"), mark: setting.mark,
                               deadline: setting.deadline) {
        case let .success(disk): tmpfs = disk
        case let .failure(unavailable):
            throw .skipped("skipped: a real full disk needs a tmpfs in a private mount namespace (unshare --mount), "
                + "which this host does not allow: \(unavailable.reason)")
        }
    }

    /// Workers run inside the namespace.
    func wrap(_ command: WorkerCommand) -> WorkerCommand {
        tmpfs?.wrap(command) ?? command
    }

    /// The app's data folder as the controller reaches it (through the namespace).
    func hostView(of dataDirectory: URL) -> URL {
        tmpfs?.hostView ?? dataDirectory
    }

    func inject(_ step: FaultStep, id: String, seed: UInt64, in context: SeamContext) throws(CaseEnd) -> StepResult {
        guard let tmpfs else { throw .harness("\(step.fault.label) needs a tmpfs, and none is mounted") }
        do {
            let done = try tmpfs.fill()
            filledBy.insert(id)
            context.ledger.update(id) { $0.fired = 1 }
            context.record(InjectionRecord(kind: step.fault.kind, target: "disk", detail: done, atMs: context.clock.elapsedMs,
                                           mechanism: InjectionRecord.Mechanism.tmpfs))
            return .ok(done)
        } catch {
            throw .harness("filling the tmpfs: \(error)")
        }
    }

    func clear(_ scope: ClearScope, in context: SeamContext) throws(CaseEnd) -> [String] {
        guard let tmpfs, filledBy.contains(where: { context.ledger.scope(scope, covers: $0) }) else { return [] }
        do {
            let done = try tmpfs.drain()
            filledBy = []
            return ["the tmpfs ballast (\(done))"]
        } catch {
            throw .harness("clearing the full disk: \(error)")
        }
    }

    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect {
        FaultEffect(hadEffect: true, summary: "filled the app's disk")
    }

    func tearDown() {
        tmpfs?.unmount()
        tmpfs = nil
    }
}
