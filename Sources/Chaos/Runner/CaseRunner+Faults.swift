import Foundation
import ChaosTarget

/// Fault steps and clears, each carried out by the seam of its family (``CaseSeams``),
/// in the case's parts (``SeamContext``).
extension CaseRunner {
    /// What the seams work with: the case's parts, not the runner.
    var context: SeamContext {
        SeamContext(app: app, ledger: ledger, clock: clock, files: files, declaration: declaration, log: log)
    }

    func inject(_ step: FaultStep, id: String) throws(CaseEnd) -> StepResult {
        guard let seam = seams.seam(for: step.fault) else { throw .harness("fault '\(step.fault.kind)' has no seam in this runner") }
        ledger.note(step, id: id, step: log.stepNumber > 0 ? log.stepNumber : nil)
        // Damage done to a file is done, a cut is over once it came: nothing stands.
        if step.fault.family.stands { standing[id] = step.fault.kind }
        return try seam.inject(step, id: id, seed: SplitMix64.subseed(seed, id), in: context)
    }

    func clear(_ scope: ClearScope) throws(CaseEnd) -> StepResult {
        var names: [String] = []
        // A disarm may be the moment of a cut waiting in the running app: then the seams
        // after it have no app to disarm in. A clear while the app is down disarms in
        // every seam, for the next launch (found by `chaos hunt`: a fault "cleared" after
        // a cut fired again at the next launch).
        let wasRunning = app.isRunning
        for seam in seams.all {
            names += try seam.clear(scope, in: context)
            if wasRunning && !app.isRunning { return StepResult(.powerLost, "the power went out") }
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
              name == declaration.workload?.read || app.readActions.contains(name), let bound = scenario.recoveryBound else { return nil }
        return plan.recoveryPollCap.map { min(bound, $0) } ?? bound
    }

    var declaration: TargetDeclaration { options.target.declaration }
}
