import Foundation
import ChaosTarget

/// The end of a case: the evidence the expectations judge, and the judgement.
extension CaseRunner {
    /// What the app shows and keeps once the steps are done, as the expectations need it.
    func gatherFinalEvidence() throws(CaseEnd) {
        guard scenario.needsApp else { return }
        let kinds = scenario.expectations.map(\.kind)
        if log.evidence.recoveryMs == nil, log.evidence.recoveryMissing == nil, let since = log.recoverySince {
            log.evidence.recoveryMissing = "no successful read after \(since.what)"
        }
        // The app is judged as the user would find it: on a fresh launch.
        if !app.isRunning {
            guard try verificationLaunch() else { return }
        }
        if let reply = try ask(WorkerRequest(op: .probe, name: "surfaced")), case let .map(surfaced)? = reply.value {
            log.evidence.surfaced = surfaced
        }
        if let store = try? logicalFile("store", asTheAppSeesIt: true) { log.evidence.storeInUse = app.holdsOpen(store.path) }
        try gatherLabEvidence()
        for case let .state(probe, _) in kinds where !probe.hasPrefix(NetworkLab.probePrefix) {
            if let reply = try ask(WorkerRequest(op: .probe, name: probe)), let value = reply.value {
                log.evidence.probes[probe] = value
            }
        }
        guard scenario.needsFinalSnapshot else { return }
        // Kept means kept across a restart: what the app acknowledged from memory alone
        // does not count. Stop it gracefully and read its data on a new launch — unless
        // the running app holds only what its launch read from the disk (it wrote nothing
        // and ran with no fault armed: the controller's own launch, or the scenario's
        // after a cut). A power cut still waiting in this run may fall in the stop: the
        // relaunch then reads the disk as the cut left it, as after any other cut.
        if !log.runReadsOnlyTheDisk {
            _ = try stop()
            guard try verificationLaunch() else {
                log.evidence.evidenceGap = "the final snapshot: the app did not come up again after the case"
                return
            }
        }
        log.evidence.finalSnapshot = try snapshot(purpose: "the final snapshot, after a restart")
        gatherOwnRecords()
    }

    /// The records of the final snapshot the app makes by itself (``OwnRecords``): what
    /// the target declares, and what a clean launch makes, learned only when some record
    /// is left that no action explains.
    func gatherOwnRecords() {
        let declared = declaration.ownRecords
        log.evidence.ownRecords = OwnRecords(declared: declared)
        let explained = log.evidence.attempted.union(log.evidence.acknowledged)
        let unexplained = log.evidence.presentKeys.subtracting(explained).filter { !log.evidence.ownRecords.contains($0) }
        guard !unexplained.isEmpty, options.launcher == nil, let cleanLaunch = options.target.cleanLaunch else { return }
        log.evidence.ownRecords = cleanLaunch.records(for: self)
        log.evidence.ownRecords.declared = declared
    }

    /// The `remote.*` probes, answered by the remotes themselves (and the proxies), not
    /// the app: readable even after the app trapped (did the remote register the family
    /// before the crash?). A probe with no answer is left out: it was "not answered".
    func gatherLabEvidence() throws(CaseEnd) {
        guard let lab = seams.network.lab else { return }
        for case let .state(probe, _) in scenario.expectations.map(\.kind) where probe.hasPrefix(NetworkLab.probePrefix) {
            if let value = lab.probe(probe) { log.evidence.probes[probe] = value }
        }
    }

    /// A launch of the controller's own, to read evidence: it is not one of the
    /// scenario's, so the last launch's health and recovery time stay as they were, and
    /// no fault is armed in it: it shows what the faults left behind. False when the
    /// app did not come up.
    func verificationLaunch() throws(CaseEnd) -> Bool {
        let evidence = log.evidence
        let since = log.recoverySince
        defer {
            log.evidence.health = evidence.health
            log.evidence.recoveryMs = evidence.recoveryMs
            log.evidence.recoveryMissing = evidence.recoveryMissing
            log.recoverySince = since
        }
        _ = try launch(clean: true)
        return app.isRunning
    }

    /// The last worker goes: stopped gracefully after a complete case, killed otherwise.
    func shutDown(abruptly: Bool) {
        guard app?.isRunning == true else { return }
        if abruptly {
            app.kill()
        } else {
            _ = try? stop()
        }
    }

    /// `integrity: ok`: the store passes `PRAGMA integrity_check`, opened by the
    /// controller with the plain "unix" VFS.
    func checkIntegrity() {
        if declaration.sqliteLibraries == 0 {
            log.evidence.integrityNotApplicable = "the target keeps no SQLite database (it declares none): "
                + "its snapshot is the judge of its data"
            return
        }
        guard let url = try? logicalFile("store") else { return }
        log.evidence.integrityChecked = true
        log.evidence.integrityProblem = IntegrityCheck.problems(ofCopyOf: url, in: scratch.appendingPathComponent("integrity", isDirectory: true))
    }

    func expectationResults() -> [ExpectationResult] {
        scenario.checkedExpectations.map { ExpectationEvaluator.evaluate($0.kind, evidence: log.evidence) } + log.stepFailures
    }
}
