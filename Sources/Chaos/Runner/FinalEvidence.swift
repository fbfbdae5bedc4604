import Foundation
import ChaosTarget

/// What the expectations judge once the steps are done: the app as the user would find
/// it on a fresh launch (what it shows, its probes, what it kept across a restart), what
/// the remotes saw, and the store itself. Gathered from the case's parts into its log.
struct FinalEvidence {
    let scenario: Scenario
    let app: CaseApp
    let log: CaseLog
    let files: CaseFiles
    let declaration: TargetDeclaration
    let lab: NetworkLab?
    /// A launch with no fault armed (the runner's `launch(clean: true)`).
    let cleanStart: () throws(CaseEnd) -> Void
    /// What a clean launch of the target makes by itself (``CleanLaunch``), decided before
    /// the case and learned only if asked; nil when the case's workers are not the target's.
    let cleanLaunch: (() -> OwnRecords)?

    /// What the app shows and keeps once the steps are done, as the expectations need it.
    func gather() throws(CaseEnd) {
        guard scenario.needsApp else { return }
        if log.evidence.recoveryMs == nil, log.evidence.recoveryMissing == nil, let since = log.recoverySince {
            log.evidence.recoveryMissing = "no successful read after \(since.what)"
        }
        // The app is judged as the user would find it: on a fresh launch.
        if !app.isRunning {
            guard try relaunch() else { return }
        }
        if case let .value(.map(surfaced))? = try app.ask(WorkerRequest(.probe("surfaced")))?.answer {
            log.evidence.surfaced = surfaced
        }
        if let store = try? files.logicalFile("store", asTheAppSeesIt: true) { log.evidence.storeInUse = app.process.holdsOpen(store.path) }
        gatherLab()
        try gatherClaims()
        for case let .state(probe, _) in scenario.expectations.map(\.kind) where !probe.hasPrefix(NetworkLab.probePrefix) {
            if case let .value(value)? = try app.ask(WorkerRequest(.probe(probe)))?.answer {
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
            _ = try app.stop()
            guard try relaunch() else {
                log.evidence.evidenceGap = MissingEvidence(text: "the final snapshot: the app did not come up again after the case")
                return
            }
        }
        log.evidence.finalSnapshot = try app.snapshot(purpose: "the final snapshot, after a restart")
        gatherOwnRecords()
    }

    /// Whether the case healed before its last launch, and, for each damaged file the
    /// app could not read, whether its bytes are still in the data folder (the app's last
    /// worker gone: its files are final) — what `live-after-healing` and `damaged-kept` judge.
    func lookForDamagedBytes() {
        log.evidence.healedBeforeLastLaunch = scenario.healsBeforeLastLaunch
        guard scenario.expectations.contains(where: { $0.kind == .damagedKept }),
              log.evidence.damages.contains(where: { !$0.chunks.isEmpty && $0.noticed == true }) else { return }
        let present = FileChunks.digests(under: files.hostDataDirectory)
        let identities = FileChunks.identities(under: files.hostDataDirectory)
        for index in log.evidence.damages.indices where !log.evidence.damages[index].chunks.isEmpty {
            let mark = log.evidence.damages[index]
            let renamed = mark.identity.map { identity in identities.contains { !mark.ownPaths.contains($0.key) && $0.value == identity } } ?? false
            log.evidence.damages[index].kept = renamed || mark.chunks.intersection(present).count * 2 >= mark.chunks.count
        }
    }

    /// A launch of the controller's own, to read evidence: it is not one of the
    /// scenario's, so the last launch's health and recovery time stay as they were, and
    /// no fault is armed in it: it shows what the faults left behind. False when the
    /// app did not come up.
    func relaunch() throws(CaseEnd) -> Bool {
        let evidence = log.evidence
        let since = log.recoverySince
        defer {
            log.evidence.health = evidence.health
            log.evidence.recoveryMs = evidence.recoveryMs
            log.evidence.recoveryMissing = evidence.recoveryMissing
            log.recoverySince = since
        }
        try cleanStart()
        return app.isRunning
    }

    /// The records of the final snapshot the app makes by itself (``OwnRecords``): what
    /// the target declares, and what a clean launch makes, learned only when some record
    /// is left that no action explains.
    func gatherOwnRecords() {
        let declared = declaration.ownRecords
        log.evidence.ownRecords = OwnRecords(declared: declared)
        let evidence = log.evidence
        let unexplained = evidence.presentKeys.contains {
            !evidence.attempted.contains($0) && !evidence.acknowledged.contains($0) && !evidence.ownRecords.contains($0)
        }
        guard unexplained, let cleanLaunch else { return }
        log.evidence.ownRecords = cleanLaunch()
        log.evidence.ownRecords.declared = declared
    }

    /// The `remote.*` probes, answered by the remotes themselves (and the proxies), not
    /// the app: readable even after the app trapped (did the remote register the family
    /// before the crash?). A probe with no answer is left out: it was "not answered".
    func gatherLab() {
        guard let lab else { return }
        for case let .state(probe, _) in scenario.expectations.map(\.kind) where probe.hasPrefix(NetworkLab.probePrefix) {
            if let value = lab.probe(probe) { log.evidence.probes[probe] = value }
        }
    }

    /// `claims-hold`: what the running app claims is kept on its remotes, then what each
    /// of those remotes holds, asked of it at its declared snapshot (not through the proxy).
    func gatherClaims() throws(CaseEnd) {
        guard scenario.expectations.contains(where: { $0.kind == .claimsHold }),
              case let .value(.map(claims))? = try app.ask(WorkerRequest(.probe(TargetDeclaration.claimsProbe)))?.answer else { return }
        var claimed: [String: [String]] = [:]
        for (remote, value) in claims {
            guard case let .list(items) = value else { continue }
            claimed[remote] = items.compactMap { if case let .string(key) = $0 { key } else { nil } }
        }
        log.evidence.claims = claimed
        for remote in claimed.keys where !(claimed[remote] ?? []).isEmpty {
            if let held = lab?.snapshot(ofRemote: remote) { log.evidence.remoteHolds[remote] = held }
        }
    }

    /// `integrity: ok`: the store passes `PRAGMA integrity_check`, opened by the
    /// controller with the plain "unix" VFS, on a copy.
    func checkIntegrity() {
        if declaration.sqliteLibraries == 0 {
            log.evidence.integrityNotApplicable = "the target keeps no SQLite database (it declares none): "
                + "its snapshot is the judge of its data"
            return
        }
        guard let url = try? files.logicalFile("store") else { return }
        log.evidence.integrityChecked = true
        log.evidence.integrityProblem = IntegrityCheck.problems(ofCopyOf: url, in: files.scratch.appendingPathComponent("integrity", isDirectory: true))
    }
}
