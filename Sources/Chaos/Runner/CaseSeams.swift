import ChaosTarget
import Foundation

/// The seams of one case (``FaultSeam``), one per family of faults, and what the step
/// loop asks of them together: set up what the scenario needs, the worker command
/// inside them all, the seam that carries a step, clears, what fired, and what each
/// fault did. Taken down on every path (pass, trap, hang, interrupt).
final class CaseSeams {
    let disk = DiskSeam()
    let files = FileSeam()
    let clock = ClockSeam()
    let network: NetworkSeam
    let process: ProcessSeam
    let power: PowerSeam
    let peer = PeerSeam()

    /// In the order a worker command is wrapped, innermost first (the tmpfs namespace,
    /// then dropped privileges, then libfaketime); and the order a fault finds its seam
    /// (a real full disk before the app's storage calls). The power comes last: a clear
    /// disarms a waiting cut after the others, whose disarming may be its moment.
    var all: [any FaultSeam] { [disk, files, clock, network, process, peer, power] }

    init(declaration: TargetDeclaration) {
        process = ProcessSeam(sqliteLibraries: declaration.sqliteLibraries)
        network = NetworkSeam(remotes: declaration.remotes)
        power = PowerSeam(declaration: declaration)
    }

    /// The seam that carries `fault`.
    func seam(for fault: AnyFault) -> (any FaultSeam)? {
        all.first { $0.carries(fault) }
    }

    /// Sets up, in each seam, what the scenario's fault steps need of it.
    func setUp(for scenario: Scenario, in setting: SeamSetting) throws(SeamUnavailable) {
        let steps = scenario.steps.compactMap { step -> FaultStep? in
            if case let .fault(fault) = step.action { return fault }
            return nil
        }
        for seam in all {
            try seam.setUp(for: scenario, steps: steps.filter { self.seam(for: $0.fault) === seam }, in: setting)
        }
    }

    /// Workers of `command` started inside every seam (each wraps it), through the seams' hooks.
    func launcher(for command: WorkerCommand, plan: CasePlan, leftovers: ProcessLeftovers?) -> any WorkerLauncher {
        ProcessWorkerLauncher(command: all.reduce(command) { $1.wrap($0) },
                              willStart: { [all] start in for seam in all { try seam.workerStarting(processStart: start) } },
                              didStart: { [all] pid in for seam in all { seam.workerStarted(pid: pid) } },
                              forkServers: servesOneCaseOnly ? nil : plan.forkServers, leftovers: leftovers, slot: plan.slot)
    }

    /// Whether the worker command is this case's alone: in the case's tmpfs namespace (its
    /// command names the namespace's process). A fork server for it would be started,
    /// used once or twice and left idle: its workers are spawned. (A clock case's command
    /// is every clock case's: the case's own clock reaches a forked worker per launch,
    /// ``FaketimeClock``.)
    var servesOneCaseOnly: Bool { disk.tmpfs != nil }

    /// Who hears what the app's process tells, as it comes: the case's log, and every
    /// seam, whose faults' firings go to the log as injections.
    func listeners(log: CaseLog, ledger: FaultLedger, clock: CaseClock) -> AppProcess.Listeners {
        AppProcess.Listeners(
            heard: { [self] news in
                let atMs = clock.elapsedMs
                log.heard(news, atMs: atMs)
                log.injections += all.flatMap { $0.heard(news, atMs: atMs, ledger: ledger) }
            },
            cutWaiting: { [power] in power.pending })
    }

    /// A new worker is up: each seam arms it with what it has standing (in-process faults,
    /// a power loss written while the app was down, write tracking), unless `clean`.
    /// Whether anything was armed.
    func launched(clean: Bool, in context: SeamContext) throws(CaseEnd) -> Bool {
        var armed = false
        for seam in all { armed = try seam.launched(clean: clean, in: context) || armed }
        return armed
    }


    /// What each fault of `ledger` did, measured by the seam that carried it.
    func effects(of ledger: FaultLedger) -> [FaultActivity] {
        ledger.activities.map { activity in
            guard let step = ledger.step(of: activity.id), let seam = seam(for: step.fault) else { return activity }
            var measured = activity
            if measured.seam == nil, step.fault.family == .storage, seam === process {
                measured.seam = process.storage.seam(of: step).rawValue
            }
            let effect = seam.effect(of: activity, step: step)
            (measured.hadEffect, measured.effect) = (effect.hadEffect, effect.summary)
            return measured
        }
    }

    func tearDown() {
        for seam in all { seam.tearDown() }
    }
}
