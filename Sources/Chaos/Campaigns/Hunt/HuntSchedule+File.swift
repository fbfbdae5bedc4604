import ChaosTarget
import Foundation

extension HuntSchedule {
    /// A finding's file read back as the schedule it was written from
    /// (`chaos hunt --shrink FILE`): its steps as the scenario format read them, its seed
    /// and system. A file the format refuses is refused with its line, as any scenario;
    /// a step a hunt never writes (`checkpoint`, `wait`, a `repeat:`) is refused by name.
    package init(findingFile url: URL) throws(ScenarioError) {
        let scenario = try ScenarioLoader.load(contentsOf: url)
        var steps: [WrittenStep] = []
        for step in scenario.steps {
            guard let written = step.written, written.isHunted else {
                throw ScenarioError("this step is not one a hunt writes (launch, stop, kill, do, fault, clear, power-loss): "
                                        + "only a hunt's own findings can be shrunk again", at: step.location)
            }
            steps.append(written)
        }
        self.init(index: 0, seed: scenario.seed, system: scenario.system, steps: steps)
    }
}
