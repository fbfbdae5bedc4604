import Foundation
import ChaosTarget

/// What a case sets up around the app and takes down however it ends: the network lab
/// (the remote and the fault proxy), the clock seam (libfaketime), a real small disk
/// (tmpfs), workers that honour permission bits even under root. Each only when the
/// scenario needs it.
final class CaseFixtures {
    /// The network lab: for a `family` scenario, network faults or `remote.*` probes.
    private(set) var lab: NetworkLab?
    /// libfaketime in the workers of a case with clock faults.
    private(set) var clock: FaketimeClock?
    /// A real small disk under the data folder, for `disk-full` with `mechanism: tmpfs`.
    private(set) var tmpfs: TmpfsDisk?
    /// `setpriv`, when workers must honour permission bits though the controller runs as
    /// root (a `read-only` fault): root's DAC override is dropped from their bounding set.
    private(set) var setpriv: String?
    /// The tmpfs holds its ballast.
    var diskFilled = false

    /// 16 MiB: room for the app's store and backups, small enough to fill in a moment.
    static let tmpfsSizeBytes = 16 << 20

    /// Why a case cannot run here.
    enum Unavailable: Error {
        /// The host lacks what the case needs: skipped, with the reason.
        case skipped(String)
        /// Setting up failed: errored.
        case harness(String)
    }

    /// Sets up what `scenario` needs, for a case whose data folder is `dataDirectory`.
    func setUp(for scenario: Scenario, scratch: URL, dataDirectory: URL, deadline: ContinuousClock.Instant) throws(Unavailable) {
        let faults = scenario.steps.compactMap { step -> FaultStep? in
            if case let .fault(fault) = step.action { return fault }
            return nil
        }
        if faults.contains(where: { ($0.fault.base as? any StorageFault)?.seam == .tmpfs }) {
            switch TmpfsDisk.mount(over: dataDirectory, sizeBytes: Self.tmpfsSizeBytes,
                                   stderrFile: scratch.appendingPathComponent("tmpfs.stderr"), deadline: deadline) {
            case let .success(disk): tmpfs = disk
            case let .failure(unavailable):
                throw .skipped("skipped: a real full disk needs a tmpfs in a private mount namespace (unshare --mount), "
                    + "which this host does not allow: \(unavailable.reason)")
            }
        }
        if faults.contains(where: { $0.fault.family == .clock }) {
            switch FaketimeClock.prepare(scratch: scratch) {
            case let .success(seam): clock = seam
            case let .failure(.noLibfaketime(reason)): throw .skipped("skipped: \(ClockUnavailable.noLibfaketime(reason))")
            case let .failure(problem): throw .harness("\(problem)")
            }
        }
        if faults.contains(where: { $0.fault.base is ReadOnlyFault }), getuid() == 0 {
            // Root ignores permission bits: a read-only file would not be read-only to the app.
            setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        let needsLab = scenario.system == "family" || faults.contains { $0.fault.family == .network }
            || scenario.expectations.contains { if case let .state(probe, _) = $0.kind { probe.hasPrefix("remote.") } else { false } }
        if needsLab {
            do {
                lab = try NetworkLab.start()
            } catch {
                throw .harness("\(error)")
            }
        }
    }

    /// The worker command with the seams around it: inside the tmpfs namespace, with
    /// libfaketime preloaded.
    func wrap(_ command: WorkerCommand) -> WorkerCommand {
        var inside = tmpfs?.wrap(command) ?? command
        if let setpriv {
            inside.arguments = ["--bounding-set=-dac_override,-dac_read_search", "--", inside.executable] + inside.arguments
            inside.executable = setpriv
        }
        return clock?.wrap(inside) ?? inside
    }

    /// Options every launch of the app gets from the fixtures: the remote's URL.
    var targetOptions: [String: String] {
        lab.map { ["remote-url": $0.remoteURL] } ?? [:]
    }

    /// The app's data folder as the controller reaches it (through the tmpfs namespace).
    func hostView(of dataDirectory: URL) -> URL {
        tmpfs?.hostView ?? dataDirectory
    }

    /// Takes everything down, on every path (pass, trap, hang, interrupt).
    func tearDown() {
        lab?.stop()
        lab = nil
        clock?.cleanUp()
        clock = nil
        tmpfs?.unmount()
        tmpfs = nil
    }
}
