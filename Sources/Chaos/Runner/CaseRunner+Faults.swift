import Foundation
import ChaosTarget

/// Fault steps and clears, each carried out by the seam of its family (``CaseSeams``);
/// the case is what the seams work in (``CaseSession``).
extension CaseRunner: CaseSession {
    func inject(_ step: FaultStep, id: String) throws(CaseEnd) -> StepResult {
        guard let seam = seams.seam(for: step.fault) else { throw .harness("fault '\(step.fault.kind)' has no seam in this runner") }
        ledger.note(step, id: id)
        // Damage done to a file is done, a cut is over once it came: nothing stands.
        if step.fault.family.stands { standing[id] = step.fault.kind }
        return try seam.inject(step, id: id, seed: SplitMix64.subseed(seed, id), in: self)
    }

    func clear(_ scope: ClearScope) throws(CaseEnd) -> StepResult {
        var names: [String] = []
        // A clear may cut the power (a running app's deferred cut, at the sync a disarm
        // makes): the seams after it then have no app to disarm in. A clear while the
        // power is already out disarms in every seam, for the next launch (found by
        // `chaos hunt`: a fault "cleared" after a cut fired again at the next launch).
        let outBefore = seams.power.isOut
        for seam in seams.all {
            names += try seam.clear(scope, in: self)
            if seams.power.isOut && !outBefore { return StepResult(.powerLost, "the power went out") }
        }
        standing = standing.filter { id, _ in !ledger.scope(scope, covers: id) }
        if !names.isEmpty { log.startRecovery(at: clock.now, after: "the clear") }
        return .ok(names.isEmpty ? "nothing armed" : "disarmed " + names.joined(separator: ", "))
    }

    /// The bound to keep asking a failed read `name` for: the scenario's
    /// `recovered-within`, while a recovery window is open and no fault stands (nor a
    /// power cut waits); nil otherwise — a read that fails under a standing fault is the
    /// fault's doing, asked once.
    func recoveryPollBound(for name: String) -> Duration? {
        guard log.recoverySince != nil, standing.isEmpty, !seams.power.cutWaits,
              name == declaration.workload?.read || readActions.contains(name) else { return nil }
        return scenario.expectations.lazy.compactMap { expectation -> Duration? in
            if case let .recoveredWithin(bound) = expectation.kind { return bound }
            return nil
        }.first
    }

    /// What the seams saw fire on their side since the last step.
    func gatherFirings() {
        for seam in seams.all { seam.gather(in: self) }
    }

    // MARK: - CaseSession

    var appIsRunning: Bool { app.isRunning }
    var declaration: TargetDeclaration { options.target.declaration }

    func record(_ injection: InjectionRecord) {
        log.injections.append(injection)
    }

    /// The path of one of the target's logical files, as the controller reaches it.
    /// `wal`, `shm` and `journal` are found beside `store` when the target does not
    /// name them. `asTheAppSeesIt`: the path inside the app's namespace, not the controller's view.
    func logicalFile(_ name: String, asTheAppSeesIt: Bool = false) throws(CaseEnd) -> URL {
        let files = declaration.files
        let companions = ["wal": "-wal", "shm": "-shm", "journal": "-journal"]
        guard let relative = files[name] ?? companions[name].flatMap({ suffix in files["store"].map { $0 + suffix } }) else {
            throw .harness("the target has no file named '\(name)'; it has: \(NameList.text(files.keys.sorted()))")
        }
        return (asTheAppSeesIt ? dataDirectory : hostDataDirectory).appendingPathComponent(relative)
    }
}
