import ChaosTarget
import Foundation

extension HuntSchedule {
    /// A finding's file read back as the schedule it was written from
    /// (`chaos hunt --shrink FILE`): its steps, seed and system. The file is loaded as any
    /// scenario first, so one the format refuses is refused here with its line; a step a
    /// hunt never writes (`checkpoint`, `wait`, a `repeat:`) is refused by name.
    package init(findingFile url: URL) throws(ScenarioError) {
        let scenario = try ScenarioLoader.load(contentsOf: url)
        let file = url.path
        guard let root = try ScenarioNode.compose(scenario.sourceText, file: file), case let .map(entries) = root.content,
              let stepsNode = entries.first(where: { $0.key == "steps" })?.value, case let .list(items) = stepsNode.content else {
            throw ScenarioError(file: file, line: 1, column: 1, message: "no steps to shrink")
        }
        var steps: [HuntStep] = []
        for item in items {
            guard let step = Self.step(item) else {
                throw ScenarioError("this step is not one a hunt writes (launch, stop, kill, do, fault, clear, power-loss): "
                                        + "only a hunt's own findings can be shrunk again", at: item.location)
            }
            steps.append(step)
        }
        self.init(index: 0, seed: scenario.seed, system: scenario.system, steps: steps)
    }

    /// One list item of `steps:` as a hunt's step; nil for one a hunt does not write.
    static func step(_ node: ScenarioNode) -> HuntStep? {
        switch node.content {
        case let .scalar(word, _):
            switch word {
            case "launch": return .launch
            case "stop": return .stop
            case "kill": return .kill
            default: return nil
            }
        case let .map(entries):
            guard let head = entries.first, let value = head.value.scalarText else { return nil }
            let rest = entries.dropFirst()
            func keys(_ entries: ArraySlice<ScenarioNode.Entry>) -> [HuntKey] { entries.map { HuntKey($0.key, $0.value.value) } }
            switch head.key {
            case StepKeyword.do.rawValue:
                guard rest.allSatisfy({ $0.key == "with" }) else { return nil }
                guard let with = rest.first?.value else { return .action(value, []) }
                guard case let .map(arguments) = with.content else { return nil }
                return .action(value, keys(arguments[...]))
            case StepKeyword.fault.rawValue: return .fault(value, keys(rest))
            case StepKeyword.clear.rawValue: return rest.isEmpty ? .clear(value) : nil
            // A power cut, as a hunt writes it: the short form of the power-loss kind.
            case StepKeyword.powerLoss.rawValue:
                guard rest.count <= 1 else { return nil }
                return .powerLoss(value, rest.first.map { HuntKey($0.key, $0.value.value) })
            default: return nil
            }
        case .list: return nil
        }
    }
}
