import ChaosTarget

/// What one sweep trial adds to a scenario: its one fault, armed from the first launch
/// of the app, and nothing after it (the relaunch that follows is clean, so it shows
/// what the fault left behind). The trial is then a normal run of the changed
/// scenario: its steps are steps, its fault is a fault, and what the fault did is in
/// the case report (``FaultActivity`` with id ``faultID``).
///
/// - `io:N:transient|persistent`: `fault: io-error, op: any, after: N-1, times: 1` (or
///   `always`) before the first launch, and `clear` of that fault before the second.
/// - `crash:...`: a `power-loss` at that write or sync before the first launch: it
///   waits for its moment in that run of the app only.
package enum TrialPlan {
    /// The id of a trial's fault in the case (its activity, its firings).
    package static let faultID = "trial"

    /// `scenario` with the steps of `trial` woven in.
    /// `images`: a crash trial's cut that also takes these images (``CrashImages``).
    package static func apply(_ trial: SweepTrial, to scenario: Scenario, images: [PowerLossImage]? = nil) -> Scenario {
        let launches = scenario.steps.indices.filter { scenario.steps[$0].action == .launch }
        guard let first = launches.first else { return scenario }
        var copy = scenario
        let location = scenario.steps[first].location
        switch trial {
        case let .ioError(operation, persistent):
            precondition(operation >= 1, "I/O operations count from 1 (SweepTrial reads no other)")
            let step = FaultStep(fault: AnyFault(IOErrorFault(operation: IOErrorFault.anyOperation)),
                                 trigger: Trigger(after: operation - 1, times: persistent ? nil : 1))
            if launches.count > 1 {
                copy.steps.insert(ScenarioStep(action: .clear(.fault(id: faultID)), location: location,
                                               label: "clear the trial's fault", origin: .trial), at: launches[1])
            }
            copy.steps.insert(ScenarioStep(action: .fault(step), location: location,
                                           label: "trial \(trial): \(step.label)", origin: .trial), at: first)
        case let .powerLoss(moment, mode, seed):
            var cut = PowerLossFault(mode: mode, moment: moment, seed: seed)
            cut.images = images
            let step = FaultStep(fault: AnyFault(cut))
            copy.steps.insert(ScenarioStep(action: .fault(step), location: location,
                                           label: "trial \(trial): \(step.label)", origin: .trial), at: first)
        }
        return copy
    }
}
