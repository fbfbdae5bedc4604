import Foundation

/// Runs one scenario as one case: drives the steps against worker processes, watches
/// for traps and hangs, gathers the evidence, and judges the expectations.
///
/// Every wait is bounded by the case deadline (`timeout:`). A hung worker is killed
/// with its whole process group; the scratch directory is removed unless `--keep`.
public final class CaseRunner {
    let scenario: Scenario
    let options: RunOptions
    let seed: UInt64
    let clock = ContinuousClock()

    let start: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant
    var scratch: URL
    /// The app's data folder, as the app sees it.
    var dataDirectory: URL { scratch.appendingPathComponent("data") }
    /// The same folder as the controller reaches it (through the tmpfs namespace, if any).
    var hostDataDirectory: URL { tmpfs?.hostView ?? dataDirectory }
    /// A real small disk under the data folder, for `disk-full` with `mechanism: tmpfs`.
    var tmpfs: TmpfsDisk?
    var tmpfsFilled = false
    var workerCommand: WorkerCommand {
        let command = tmpfs?.wrap(options.worker) ?? options.worker
        return faketime?.wrap(command) ?? command  // clock case: libfaketime preloaded
    }
    var needsTmpfs: Bool {
        scenario.steps.contains { step in
            if case let .fault(fault) = step.action, let diskFull = fault.fault.as(DiskFullFault.self) {
                return diskFull.mechanism == .tmpfs
            }
            return false
        }
    }
    /// 16 MiB: room for the app's store and backups, small enough to fill in a moment.
    static let tmpfsSizeBytes = 16 << 20
    // MARK: Clock — libfaketime in the workers of a case with clock faults (FaketimeClock).
    var faketime: FaketimeClock?
    var needsClock: Bool {
        scenario.steps.contains { if case let .fault(step) = $0.action { step.fault.family == .clock } else { false } }
    }
    var worker: WorkerSession?
    var files: [String: String]?
    var workerLaunches = 0
    /// How long the last worker took from spawn to its ready line.
    var workerReadyMs = 0
    var activeArmings: [(kind: String, arming: PointArming)] = []
    var activeStorage: [(kind: String, rule: StorageFaultRule)] = []
    /// A deferred power loss armed in the running worker, and the step that armed it.
    var pendingPowerLoss: (order: PowerLossOrder, step: Int)?
    /// The power went out: the app is down until the next launch.
    var powerOut = false
    var tracksWrites: Bool {
        options.sweepTrial?.powerLossOrder != nil
            || scenario.steps.contains { if case .powerLoss = $0.action { true } else { false } }
    }
    var tornWrites: Bool {
        options.sweepTrial?.powerLossOrder?.mode == .torn
            || scenario.steps.contains { if case let .powerLoss(step) = $0.action { step.mode == .torn } else { false } }
    }
    /// The target options of every launch: the network lab's `remote-url`, the
    /// scenario's, then the run's overrides.
    var targetOptions: [String: String] {
        (lab.map { ["remote-url": $0.remoteURL] } ?? [:])
            .merging(scenario.options) { _, new in new }
            .merging(options.optionOverrides) { _, new in new }
    }
    // MARK: Network lab — the remote and the fault proxy of family sync (NetworkLab).
    /// Started for a `family` scenario, one with network faults or `remote.*` probes;
    /// stopped in `cleanUp`, however the case ends.
    var lab: NetworkLab?
    var needsNetworkLab: Bool {
        scenario.system == "family"
            || scenario.steps.contains { if case let .fault(step) = $0.action { step.fault.family == .network } else { false } }
            || scenario.expectations.contains { if case let .state(probe, _) = $0.kind { probe.hasPrefix("remote.") } else { false } }
    }

    /// After `run()`: whether the sweep trial's fault fired.
    public internal(set) var sweepFired = false
    /// After `run()`: tracked writes and syncs of the first launch (crash sweeps count them).
    public internal(set) var firstLaunchIO: (writes: Int, syncs: Int)?
    var evidence = CaseEvidence()
    var steps: [StepRecord] = []
    var injections: [InjectionRecord] = []
    var stepFailures: [ExpectationResult] = []
    var recoverySince: (instant: ContinuousClock.Instant, what: String)?
    var recoveryStartMs: Int?
    var harnessError: String?
    var interrupted = false
    var stopped = false  // the case ended early (trap, hang, error)

    public init(scenario: Scenario, options: RunOptions) {
        self.scenario = scenario
        self.options = options
        seed = options.seed ?? scenario.seed
        start = clock.now
        deadline = start + scenario.timeout
        scratch = options.scratchRoot
    }

    /// The command line that reproduces this case.
    public static func reproduceCommand(scenario: Scenario, seed: UInt64, variant: String, extras: [String]) -> String {
        let bundled = ScenarioLoader.bundledNames().contains(scenario.name)
            && scenario.location.file.contains("/catalog/")
        let subject = bundled ? scenario.name : scenario.location.file
        return (["chaos", "run", shellQuoted(subject), "--seed", String(seed), "--variant", variant] + extras.map(shellQuoted))
            .joined(separator: " ")
    }

    static func shellQuoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    public func run() -> CaseReport {
        do {
            scratch = try makeScratch()
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            return report(verdict: .errored, error: "cannot create a scratch directory: \(error)")
        }
        defer { cleanUp() }
        if needsTmpfs {
            switch TmpfsDisk.mount(over: dataDirectory, sizeBytes: Self.tmpfsSizeBytes,
                                   stderrFile: scratch.appendingPathComponent("tmpfs.stderr"), deadline: deadline) {
            case let .success(disk):
                tmpfs = disk
            case let .failure(unavailable):
                return report(verdict: .skipped, error: "skipped: a real full disk needs a tmpfs in a private mount "
                    + "namespace (unshare --mount), which this host does not allow: \(unavailable.reason)")
            }
        }
        if needsClock {
            switch FaketimeClock.prepare(scratch: scratch) {
            case let .success(seam): faketime = seam
            case let .failure(.noLibfaketime(reason)):
                return report(verdict: .skipped, error: "skipped: \(ClockUnavailable.noLibfaketime(reason))")
            case let .failure(problem): return report(verdict: .errored, error: "\(problem)")
            }
        }
        if needsNetworkLab {
            do {
                lab = try NetworkLab.start()
            } catch {
                return report(verdict: .errored, error: "\(error)")
            }
        }

        for (index, step) in scenario.steps.enumerated() {
            if RunInterruption.requested { interrupted = true; break }
            if stopped { break }
            if clock.now >= deadline {
                fail(step: index, label: step.label, outcome: "timed-out",
                     detail: "the case reached its timeout (\(ScenarioDuration.format(scenario.timeout))) before this step")
                evidence.abnormalEnd = "the case timed out after \(ScenarioDuration.format(scenario.timeout))"
                stopped = true
                break
            }
            perform(step, index: index + 1)
        }
        if !stopped && !interrupted && harnessError == nil {
            gatherFinalEvidence()
        } else if !interrupted && harnessError == nil {
            gatherLabEvidence()
        }
        shutDownWorker()
        if !stopped && !interrupted && harnessError == nil && needsIntegrity { checkIntegrity() }

        if interrupted { return report(verdict: .interrupted, error: "interrupted before the case finished") }
        if let harnessError { return report(verdict: .errored, error: harnessError) }
        let results = expectationResults()
        return report(verdict: results.allSatisfy(\.passed) ? .passed : .deviated, expectations: results)
    }

    // MARK: - Report

    func report(verdict: Verdict, expectations: [ExpectationResult] = [], error: String? = nil) -> CaseReport {
        var report = CaseReport(
            scenario: scenario.name, summary: scenario.summary, system: scenario.system,
            scenarioFile: scenario.location.file, scenarioHash: CaseReport.scenarioHash(of: scenario.sourceText),
            seed: seed, variant: options.variant, verdict: verdict, durationMs: ms(clock.now - start),
            recoveryMs: evidence.recoveryMs, steps: steps, injections: injections, expectations: expectations,
            trap: evidence.trap,
            reproduce: Self.reproduceCommand(scenario: scenario, seed: seed, variant: options.variant, extras: options.reproduceExtras),
            error: error, workerLaunches: workerLaunches)
        report.recoveryStartMs = evidence.recoveryMs == nil ? nil : recoveryStartMs
        report.options = targetOptions
        return report
    }

    func makeScratch() throws -> URL {
        let url = options.scratchRoot.appendingPathComponent("chaos-\(scenario.name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func cleanUp() {
        if let worker { _ = worker.kill() }
        worker = nil
        lab?.stop()
        lab = nil
        faketime?.cleanUp()
        faketime = nil
        tmpfs?.unmount()
        tmpfs = nil
        guard !options.keepScratch else { return }
        // Permission bits may have been cleared by a read-only fault.
        if let enumerator = FileManager.default.enumerator(atPath: scratch.path) {
            for case let path as String in enumerator { _ = chmod(scratch.appendingPathComponent(path).path, 0o755) }
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Where this case's files are (meaningful with `--keep`).
    public var scratchDirectory: URL { scratch }

    func ms(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
