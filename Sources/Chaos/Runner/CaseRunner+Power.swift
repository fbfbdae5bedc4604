import ChaosTarget

/// The power: a `power-loss` step cuts it now, or arms a cut at a later write, sync or
/// fault point of the running app (of the next launch, when the app is down). A cut
/// waits for its moment in one run of the app: if that run ends first, it is gone.
extension CaseRunner {
    func losePower(_ step: PowerLossStep, id: String) throws(CaseEnd) -> StepResult {
        let order = PowerLossOrder(step: step, seed: step.seed ?? SplitMix64.subseed(seed, id))
        ledger.note(FaultActivity(id: id, kind: StepKeyword.powerLoss.rawValue, label: step.label))
        guard app.isRunning else {
            powerPlan = (order, id)
            return .ok("armed for the next launch: \(step.label)")
        }
        if order.isNow {
            armedPowerLoss = id
            guard try ask(WorkerRequest(op: .powerLoss, powerLoss: order)) == nil else {
                throw .harness("the worker answered instead of losing power")
            }
            return .ok("the power went out (\(step.mode.rawValue))")
        }
        try armPowerLoss(order, id: id)
        return .ok("armed: \(step.label)")
    }

    /// Arms a cut in the running app.
    func armPowerLoss(_ order: PowerLossOrder, id: String) throws(CaseEnd) {
        armedPowerLoss = id
        guard try ask(WorkerRequest(op: .powerLoss, powerLoss: order)) != nil else { return }
        app.pendingPowerLoss = order
    }

    /// Disarms a cut waiting for its moment; true when there was one.
    func disarmPowerLoss() throws(CaseEnd) -> Bool {
        let armed = powerPlan != nil || app.pendingPowerLoss != nil
        powerPlan = nil
        if app.pendingPowerLoss != nil {
            app.pendingPowerLoss = nil
            _ = try ask(WorkerRequest(op: .disarm, name: PowerLossOrder.pointID))
        }
        return armed
    }

    func powerWentOut(_ order: PowerLossOrder, during what: String) {
        powerOut = true
        log.evidence.powerWentOut = true
        endRun(powerLost: true)
        let when = order.isNow ? "now" : "during '\(what)'"
        log.injections.append(InjectionRecord(kind: StepKeyword.powerLoss.rawValue, target: "store",
                                              detail: "power lost \(when), \(order.mode.rawValue) unsynced writes",
                                              atMs: clock.elapsedMs, mechanism: powerLossMechanism))
    }

    /// Where the cut was simulated: below the target's SQLite, or at the file level
    /// through the libc seam (a target that keeps no SQLite).
    var powerLossMechanism: String {
        declaration.storageSeam == .libc
            ? InjectionRecord.Mechanism.libc : InjectionRecord.Mechanism.vfs
    }

    /// A run of the app ended: the power loss armed in it is over, with what it saw.
    func endRun(powerLost: Bool) {
        guard let id = armedPowerLoss else { return }
        armedPowerLoss = nil
        let io = log.trackedIO
        ledger.update(id) { activity in
            activity.fired = powerLost ? 1 : 0
            activity.writes = io?.writes
            activity.syncs = io?.syncs
        }
    }

    /// The seam that cuts the power saw none of the app's writes and syncs while a cut
    /// waited: the cut could not come, whatever the steps did.
    var powerLossSawNothing: Bool {
        guard let io = log.trackedIO else { return true }
        return io.writes == 0 && io.syncs == 0
    }

    /// Why a cut that saw no write never came: the seam that cuts the power does not reach
    /// the app's files.
    var powerLossUnreached: String {
        powerLossMechanism == InjectionRecord.Mechanism.libc
            ? "the libc seam saw none of the app's writes under its data folder (is it loaded? does the app write elsewhere?)"
            : "the fault VFS saw none of the app's writes: its SQLite is not the copy the VFS is installed into (sqlite-nio and "
                + "SQLCipher compile their own: declare it, `static let sqlite = [SQLiteLibrary.sqliteNIO]`; for plain files, "
                + "`static let sqlite: [SQLiteLibrary] = []`)"
    }

    /// What each fault of the case did, measured by its seam; a power loss, by whether
    /// its moment came.
    func measureFaults() -> [FaultActivity] {
        seams.effects(of: ledger).map { activity in
            guard activity.kind == StepKeyword.powerLoss.rawValue else { return activity }
            var measured = activity
            let io = activity.writes.map { " (\($0) writes, \(activity.syncs ?? 0) syncs while it waited)" } ?? ""
            let unreached = (activity.writes ?? 0) == 0 && (activity.syncs ?? 0) == 0 ? " — \(powerLossUnreached)" : ""
            (measured.hadEffect, measured.effect) = activity.fired > 0 ? (true, "the power went out")
                : (false, "no effect: its moment never came\(io)\(unreached)")
            return measured
        }
    }
}
