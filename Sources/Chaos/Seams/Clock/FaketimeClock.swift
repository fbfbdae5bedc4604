import Foundation
import ChaosTarget

/// The clock of one case, carried out by libfaketime inside its workers.
///
/// The controller keeps the app's wall clock (``FakeWallClock``, decided by the clock
/// faults) and writes it, as libfaketime's timestamp-file line, to a file in the case's
/// scratch folder. Workers of a clock case start with the shim and libfaketime
/// preloaded and read that file on every clock reading, so rewriting it moves the
/// clock of a running app; `FAKETIME` is unset because it would win over the file.
/// The controller itself is never faked: its deadlines and `Date()` are real.
///
/// Every clock case's command is the same, so one fork server (started under
/// libfaketime, its own clock real) forks the workers of them all: libfaketime reads the
/// path of its file once, when its process starts, and the server's says
/// `/proc/self/fd/237/faketime.rc` — the case's folder, which each forked worker finds
/// open at descriptor 237 (``WorkerCommand/PerLaunch``). A worker spawned anew reads the
/// case's own path, which every forked worker also passes on to what it starts.
///
/// libfaketime keeps a semaphore and a shared-memory object per process in /dev/shm
/// and removes them when the process exits; a killed or trapped worker leaves them,
/// so the seam removes those of the workers it saw start.
final class FaketimeClock {
    let libraries: FaketimeLibraries
    let timestampFile: URL
    private(set) var clock = FakeWallClock.real
    /// When the running worker's libfaketime started (about when it was spawned).
    private var workerStart: Date?
    /// Once a line said a rate, every line says one (libfaketime keeps the last).
    private var rateWritten = false
    private var workerPIDs: [pid_t] = []

    init(libraries: FaketimeLibraries, timestampFile: URL) throws {
        self.libraries = libraries
        self.timestampFile = timestampFile
        try write(at: Date())
    }

    /// The clock seam for a case whose scratch folder is `scratch`, or why there is none.
    static func prepare(scratch: URL, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Result<FaketimeClock, ClockUnavailable> {
        switch FaketimeLibraries.locate(environment: environment) {
        case let .failure(reason): return .failure(reason)
        case let .success(libraries):
            do {
                return .success(try FaketimeClock(libraries: libraries, timestampFile: scratch.appendingPathComponent("faketime.rc")))
            } catch {
                return .failure(.harness("cannot write the timestamp file in \(scratch.path): \(error)"))
            }
        }
    }

    /// The environment a worker of a clock case starts with.
    func environment(_ base: [String: String]) -> [String: String] {
        // Inherited libfaketime settings (a controller run under `faketime`) would
        // fight the file: FAKETIME always wins over it.
        var environment = base.filter { !$0.key.hasPrefix("FAKETIME") && $0.key != "DONT_FAKE_MONOTONIC" }
        let inherited = base["LD_PRELOAD"].map { ":" + $0 } ?? ""
        environment["LD_PRELOAD"] = libraries.preload + inherited
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        environment["FAKETIME_TIMESTAMP_FILE"] = "/proc/self/fd/\(Self.folderDescriptor)/\(timestampFile.lastPathComponent)"
        environment["FAKETIME_NO_CACHE"] = "1"
        // libfaketime's constructor setenv()s FAKETIME_SHARED (its /dev/shm names) in
        // the first faked process. A new variable makes glibc move `environ`, and Swift
        // on Linux finds argv from `environ`: the worker would start with no arguments.
        // Already present, the variable is replaced in place; the placeholder names no
        // semaphore, so libfaketime makes its own as before.
        environment["FAKETIME_SHARED"] = Self.sharedPlaceholder
        return environment
    }

    /// Two names, as libfaketime parses the variable, of no existing semaphore.
    static let sharedPlaceholder = "/chaos-faketime-unset /chaos-faketime-unset"

    /// The descriptor at which a forked worker finds the case's folder: one no program
    /// opens by itself (descriptors are given lowest first).
    static let folderDescriptor: Int32 = 237

    func wrap(_ command: WorkerCommand) -> WorkerCommand {
        var wrapped = command
        wrapped.environment = environment(command.environment)
        wrapped.perLaunch.environment["FAKETIME_TIMESTAMP_FILE"] = timestampFile.path
        wrapped.perLaunch.folders[Self.folderDescriptor] = timestampFile.deletingLastPathComponent().path
        return wrapped
    }

    /// Call right before a worker is spawned: its libfaketime started at `processStart`
    /// (now, for a worker spawned anew; its fork server's start, for a forked one).
    func workerStarting(at processStart: Date = Date()) throws {
        workerStart = processStart
        try write(at: Date())
    }

    /// The worker spawned by the last ``workerStarting(at:)`` is `pid`.
    func workerStarted(pid: pid_t) {
        workerPIDs.append(pid)
    }

    /// Carries out a clock fault; returns what the app's clock now does, for the report.
    func apply(_ fault: any ClockFault, at now: Date = Date()) throws -> String {
        clock = fault.applied(to: clock, at: now)
        return try write(at: now)
    }

    /// `clear: KIND` for a clock kind, or `clear: all` (nil).
    func clear(kind: String?, at now: Date = Date()) throws -> String {
        clock = ClockClearing.cleared(clock, kind: kind, at: now)
        return try write(at: now)
    }

    /// The line in the timestamp file, for the report: the clock the app reads.
    @discardableResult
    private func write(at now: Date) throws -> String {
        let line = FaketimeTimestamp.line(for: clock, workerStart: workerStart ?? now, withRate: rateWritten)
        rateWritten = rateWritten || line.contains(" x")
        // Atomic (a rename): the worker re-reads the file on every clock reading and must
        // never see half a line.
        try Data((line + "\n").utf8).write(to: timestampFile, options: .atomic)
        return "\(clock.describe(at: now)) (libfaketime: \"\(line)\")"
    }

    /// Removes the /dev/shm objects that workers which did not exit cleanly left.
    func cleanUp() {
        for pid in workerPIDs { Self.removeSharedObjects(of: pid) }
        workerPIDs.removeAll()
    }

    /// Removes the semaphore and shared memory libfaketime made in process `pid`.
    static func removeSharedObjects(of pid: pid_t) {
        unlink("/dev/shm/faketime_shm_\(pid)")
        unlink("/dev/shm/sem.faketime_sem_\(pid)")
    }
}
