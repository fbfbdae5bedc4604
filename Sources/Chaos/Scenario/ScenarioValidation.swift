import ChaosTarget

/// Checks that need the whole scenario: the app's lifecycle across steps, checkpoint
/// names, and expectations that refer to steps.
enum ScenarioValidation {
    static func validate(_ scenario: Scenario) throws(ScenarioError) {
        try checkLifecycle(scenario.steps)
        try checkSuspensions(scenario.steps)
        let checkpoints = try checkCheckpoints(scenario.steps)
        try checkExpectations(scenario.expectations, checkpoints: checkpoints)
    }

    /// `do` and `checkpoint` need a running app; `launch` needs a stopped one; `stop`
    /// and `kill` a running one. The runner can then trust the sequence.
    static func checkLifecycle(_ steps: [ScenarioStep]) throws(ScenarioError) {
        var launchedAt: SourceLocation?
        var endedAt: SourceLocation?
        // A deferred power loss ends the app at some later step: the next launch may follow.
        var pendingPowerLoss = false
        // One written while the app is down is armed at the next launch.
        var armedForNextLaunch = false
        for step in steps {
            switch step.action {
            case .launch:
                if let launchedAt, !pendingPowerLoss {
                    throw ScenarioError("the app is already running (launched at line \(launchedAt.line)): add '- stop' or '- kill' before launching it again", at: step.location)
                }
                launchedAt = step.location
                endedAt = nil
                pendingPowerLoss = armedForNextLaunch
                armedForNextLaunch = false
            case let .fault(fault) where fault.fault.family == .power:
                let powerLoss: any PowerFault = fault.fault.base as? any PowerFault ?? PowerLossFault()
                // A power loss at a later write, sync or point may be armed before the
                // app runs: it is armed at the next launch.
                guard launchedAt != nil || powerLoss.isDeferred else {
                    throw ScenarioError("'power-loss' now needs a running app: add '- launch' before it, or give it a moment (at-sync, after-writes, at-point) to arm it for the next launch", at: step.location)
                }
                if powerLoss.isDeferred, launchedAt == nil {
                    armedForNextLaunch = true
                } else if powerLoss.isDeferred {
                    pendingPowerLoss = true
                } else {
                    launchedAt = nil
                    endedAt = step.location
                }
            case .stop, .kill:
                guard launchedAt != nil else {
                    let when = endedAt.map { " (it ended at line \($0.line))" } ?? ""
                    throw ScenarioError("'\(step.action.wireName)' needs a running app\(when): add '- launch' before it", at: step.location)
                }
                launchedAt = nil
                endedAt = step.location
            case let .fault(fault) where (type(of: fault.fault.base) as? any FileFault.Type).map { !$0.actsWhileRunning } == true:
                // Files are damaged while the app is closed, as a user's files are between
                // two launches (the runner refuses it otherwise, after the run started).
                if let launchedAt, !pendingPowerLoss {
                    throw ScenarioError("'fault: \(fault.fault.kind)' damages the app's files while it is closed, but the app is running "
                        + "here (launched at line \(launchedAt.line)): add '- stop' or '- kill' before it", at: step.location)
                }
            default:
                guard step.action.touchesApp, launchedAt == nil else { continue }
                if let endedAt {
                    throw ScenarioError("'\(step.action.wireName)' needs a running app, but it ended at line \(endedAt.line): add '- launch' before this step", at: step.location)
                }
                throw ScenarioError("'\(step.action.wireName)' needs a running app: add '- launch' before the first step that touches the app", at: step.location)
            }
        }
    }

    /// A suspended app (`- suspend`) does nothing until `resume`: no action, checkpoint,
    /// stop or second suspension; `kill` ends it (the system ends a suspended app without
    /// asking). A case that ends with the app suspended is resumed before its evidence.
    static func checkSuspensions(_ steps: [ScenarioStep]) throws(ScenarioError) {
        var suspendedAt: SourceLocation?
        for step in steps {
            switch step.action {
            case .resume:
                guard suspendedAt != nil else {
                    throw ScenarioError("'resume' needs a suspended app: add '- suspend' before it", at: step.location)
                }
                suspendedAt = nil
            case .kill:
                suspendedAt = nil
            case let .suspend(suspend) where suspendedAt == nil:
                if suspend.moment == .now { suspendedAt = step.location }
            case let .perform(action) where action.inPeer:
                continue  // the widget is not suspended with the app
            case .perform, .checkpoint, .stop, .suspend:
                if let suspendedAt {
                    throw ScenarioError("'\(step.action.wireName)' needs the app in the foreground, but it was suspended at line \(suspendedAt.line): "
                        + "add '- resume' before this step, or '- kill' (the system ends a suspended app without asking)", at: step.location)
                }
            default:
                continue
            }
        }
    }

    /// Checkpoint names are unique; returns them with where they were declared.
    static func checkCheckpoints(_ steps: [ScenarioStep]) throws(ScenarioError) -> [String: SourceLocation] {
        var declared: [String: SourceLocation] = [:]
        for step in steps {
            guard case let .checkpoint(name) = step.action else { continue }
            if let earlier = declared[name] {
                throw ScenarioError("checkpoint '\(name)' is already declared at line \(earlier.line): give each checkpoint its own name", at: step.location)
            }
            declared[name] = step.location
        }
        return declared
    }

    /// `preserved:` names a declared checkpoint or `acknowledged`; an expectation that
    /// can be written once (everything but `preserved` and `state`) is written once,
    /// and the same `preserved:` or `state:` probe is not repeated.
    static func checkExpectations(_ expectations: [ScenarioExpectation], checkpoints: [String: SourceLocation]) throws(ScenarioError) {
        var seen: [String: SourceLocation] = [:]
        for expectation in expectations {
            let keyword = expectation.kind.keyword
            let identity: String
            switch expectation.kind {
            case let .preserved(name):
                if name != Expectation.acknowledged, checkpoints[name] == nil {
                    let names = checkpoints.keys.sorted()
                    let declared = names.isEmpty ? "the steps declare no checkpoint" : "declared: " + names.joined(separator: ", ")
                    throw ScenarioError(
                        "'preserved: \(name)' names no checkpoint of the steps (\(declared)); add '- checkpoint: \(name)' or use 'acknowledged'",
                        at: expectation.location,
                        suggestion: ClosestName.suggestion(for: name, among: names + [Expectation.acknowledged])
                    )
                }
                identity = "preserved: \(name)"
            case let .state(probe, _):
                identity = "state: \(probe)"
            default:
                identity = keyword.rawValue
            }
            if let earlier = seen[identity] {
                throw ScenarioError("'\(identity)' is already expected at line \(earlier.line)", at: expectation.location)
            }
            seen[identity] = expectation.location
        }
    }
}
