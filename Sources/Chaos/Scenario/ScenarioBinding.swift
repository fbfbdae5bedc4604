import ChaosTarget

extension Scenario {
    /// The scenario as it runs on a target that declares `declaration`: `do:
    /// workload.write` and `do: workload.read` become the target's own write and read
    /// actions, and `fallback: after-damage` the mode its workload promises after damage
    /// (dropped when it promises none). The one place those placeholders are resolved:
    /// the check before the run (``ScenarioTargetCheck``) judges the bound scenario, and
    /// the bound scenario is what runs. Binding a bound scenario changes nothing.
    package func bound(to declaration: TargetDeclaration) -> Scenario {
        var bound = self
        if let workload = declaration.workload {
            bound.steps = steps.map { step in
                guard case var .perform(action) = step.action, let name = workload.action(named: action.name) else { return step }
                var changed = step
                action.name = name
                changed.action = .perform(action)
                return changed
            }
        }
        bound.expectations = expectations.compactMap { expectation in
            guard case .fallback(Expectation.afterDamage) = expectation.kind else { return expectation }
            guard let mode = declaration.workload?.afterDamage else { return nil }
            return ScenarioExpectation(kind: .fallback(mode), location: expectation.location)
        }
        return bound
    }
}

extension Workload {
    /// The target's action a `workload.write` or `workload.read` placeholder names; nil
    /// for any other name.
    package func action(named placeholder: String) -> String? {
        switch placeholder {
        case Self.actionPrefix + "write": write
        case Self.actionPrefix + "read": read
        default: nil
        }
    }
}
