import Foundation
import ChaosTarget

/// Carrying out one step: the app's own steps go to the app (``CaseApp``), a launch
/// arms the new worker through every seam, faults and clears go to the seams.
extension CaseRunner {
    /// One step. Throws when the step ends the case.
    func perform(_ step: ScenarioStep, id: String) throws(CaseEnd) -> StepResult {
        if seams.power.isOut, step.action.touchesApp {
            return StepResult(.skipped, "the power is out: the app is down until the next launch")
        }
        switch step.action {
        case .launch: return try launch()
        case .stop: return try app.stop()
        case .kill: return app.kill()
        case let .perform(action):
            return try app.perform(action, label: "\(id.replacingOccurrences(of: "-", with: " ")): \(step.label)",
                                   recoveryBound: recoveryPollBound(for:))
        case let .checkpoint(name):
            guard let snapshot = try app.snapshot(purpose: "checkpoint \(name)") else {
                return StepResult(seams.power.isOut ? .powerLost : .error, log.evidence.evidenceGap?.text)
            }
            log.evidence.checkpoints[name] = snapshot
            return .ok("\(snapshot.values.reduce(0) { $0 + $1.count }) records")
        case let .fault(fault): return try inject(fault, id: id)
        case let .clear(scope): return try clear(scope)
        case let .wait(duration):
            clock.wait(duration)
            return .ok()
        }
    }

    /// `clean`: the controller's own launch to read evidence, with no fault armed.
    func launch(clean: Bool = false) throws(CaseEnd) -> StepResult {
        var before = ""
        if app.isRunning {
            if !clean, let never = seams.power.cutNeverCame { throw .harness(never) }
            // A launch while running is a restart: stop gracefully first. A power loss
            // may cut the stop; the launch goes on when the power is back.
            if try app.stop().outcome == .powerLost { before = "the power went out while the app was stopping; then " }
        }
        try app.start()
        if plan.countPoints && !clean { _ = try app.ask(WorkerRequest(.countPoints)) }
        let armed = try seams.launched(clean: clean, in: context)
        // A run launched while a fault stood outside the app (its network cut, its clock
        // moved) holds more than what it read from the disk, as a run with faults armed in it.
        log.startRun(armed: armed || (!clean && !standing.isEmpty))
        let launchStart = clock.now
        log.evidence.health = nil
        log.startRecovery(at: launchStart, after: "the launch")
        guard let reply = try app.ask(WorkerRequest(.launch)) else {
            return StepResult(.powerLost, "the power went out during the launch")
        }
        let took = (clock.now - launchStart).wholeMilliseconds
        guard case let .map(health)? = reply.value else { return .ok(before + "worker ready in \(app.process.readyMs) ms") }
        log.launched(health: health)
        let mode = health["mode"]?.stringValue ?? "?"
        return .ok(before + "mode \(mode) in \(took) ms (worker ready in \(app.process.readyMs) ms)")
    }
}
