import ChaosTarget

/// Checks a scenario against what its target declares (``TargetDeclaration``): its
/// system, every action and its arguments, every logical file a fault names, every probe
/// and fallback mode an expectation names. What the run would refuse after minutes is
/// refused before anything runs, at its line, with the closest valid name.
package enum ScenarioTargetCheck {
    /// The storage catalog's system, which runs on any target.
    package static let storageSystem = "storage"

    /// Every problem of `scenario` on `target`; empty when it fits. Its system is one the
    /// target declares (any kebab-case name for a target that declares none), or the
    /// storage catalog's.
    package static func problems(_ scenario: Scenario, target: TargetDeclaration) -> [ScenarioError] {
        let scenario = scenario.bound(to: target)
        var problems: [ScenarioError] = []
        let declared = target.systems
        if !declared.isEmpty, scenario.system != storageSystem, !declared.contains(scenario.system) {
            let systems = declared + [storageSystem]
            problems.append(ScenarioError("unknown system '\(scenario.system)' for this target; it has: \(NameList.text(systems))",
                                          at: scenario.systemLocation ?? scenario.location, suggestion: ClosestName.suggestion(for: scenario.system, among: systems)))
        }
        for step in scenario.steps {
            switch step.action {
            case let .perform(action): problems += check(action, at: step.location, target: target)
            case let .fault(fault):
                if let file = (fault.fault.base as? any FileFault)?.file, let problem = check(file: file, at: step.location, target: target) {
                    problems.append(problem)
                }
                if let file = fault.trigger.file, let problem = check(declaredFile: file, at: step.location, target: target) {
                    problems.append(problem)
                }
                if fault.fault.family == .network, let problem = checkRemote(of: fault, at: step.location, target: target) {
                    problems.append(problem)
                }
            default: break
            }
        }
        for expectation in scenario.expectations {
            if let problem = check(expectation, target: target) { problems.append(problem) }
        }
        for key in scenario.options.keys.sorted() {
            let location = scenario.optionLocations[key] ?? scenario.location
            if let problem = optionProblem(key, scenario.options[key] ?? "", target: target) {
                problems.append(ScenarioError("option '\(key)': \(problem.text)", at: location, suggestion: problem.suggestion))
            }
        }
        return problems
    }

    /// What is wrong with target option `key=value` on `target`; nil when it declares it
    /// and takes the value.
    package static func optionProblem(_ key: String, _ value: String, target: TargetDeclaration) -> (text: String, suggestion: String?)? {
        guard !key.isEmpty else { return ("an option needs a name (KEY=VALUE)", nil) }
        let declared = target.options
        guard let option = declared.first(where: { $0.name == key }) else {
            let names = declared.map(\.name)
            let has = names.isEmpty ? "it reads no options" : "it reads: " + NameList.text(names)
            return ("the target has no option '\(key)'; \(has)", ClosestName.suggestion(for: key, among: names))
        }
        return option.problem(with: value).map { ("\($0) (\(option.summary))", nil) }
    }

    /// `action` of a bound scenario: a workload placeholder still there is one the target
    /// cannot fill.
    static func check(_ action: ActionStep, at location: SourceLocation, target: TargetDeclaration) -> [ScenarioError] {
        let name = action.name
        if name.hasPrefix(Workload.actionPrefix) {
            guard target.workload != nil else {
                return [ScenarioError("'\(name)' names the target's workload, but it declares none: add `static let workload` "
                    + "to its ChaosTarget, or name one of its actions", at: location)]
            }
            return [ScenarioError("'\(name)': a workload has 'workload.write' and 'workload.read'", at: location)]
        }
        guard target.actions.contains(name) else {
            return [ScenarioError("unknown action '\(name)' for this target; it has: \(NameList.text(target.actions))",
                                  at: location, suggestion: ClosestName.suggestion(for: name, among: target.actions))]
        }
        guard let parameters = target.parameters[name] else { return [] }
        let missing = parameters.filter { $0.isRequired && action.arguments[$0.name] == nil }.map { parameter in
            ScenarioError("'\(name)' needs the argument '\(parameter.name)' (with: { \(parameter.name): … })", at: location)
        }
        return missing + action.arguments.keys.sorted().compactMap { key in
            guard let parameter = parameters.first(where: { $0.name == key }) else {
                let takes = parameters.isEmpty ? "it takes no arguments" : "it takes: " + NameList.text(parameters.map(\.name))
                return ScenarioError("'\(name)' has no argument '\(key)'; \(takes)", at: location,
                                     suggestion: ClosestName.suggestion(for: key, among: parameters.map(\.name)))
            }
            return action.arguments[key].flatMap(parameter.problem).map { ScenarioError("'\(key)' of \(name) \($0)", at: location) }
        }
    }

    /// A network fault acts on a remote the target declares: the one it names, or the
    /// only one.
    static func checkRemote(of step: FaultStep, at location: SourceLocation, target: TargetDeclaration) -> ScenarioError? {
        let names = target.remotes.map(\.name)
        guard !names.isEmpty else {
            return ScenarioError("'\(step.fault.kind)' acts between the app and a remote, and the target declares none: "
                + "add `static var remotes: [Remote]` to its ChaosTarget (docs/TARGETS.md, \"Remotes\")", at: location)
        }
        guard let name = step.remote else {
            guard names.count == 1 else {
                return ScenarioError("the target has \(names.count) remotes: say which with 'remote:' (\(NameList.text(names)))", at: location)
            }
            return nil
        }
        guard !names.contains(name) else { return nil }
        return ScenarioError("the target has no remote named '\(name)'; it has: \(NameList.text(names))",
                             at: step.remoteLocation ?? location, suggestion: ClosestName.suggestion(for: name, among: names))
    }

    /// A storage fault's `file:`: one of the files the target declares (its companions
    /// are the store's own: `on: wal` aims at them).
    static func check(declaredFile file: String, at location: SourceLocation, target: TargetDeclaration) -> ScenarioError? {
        let names = target.files.keys.sorted()
        guard !names.contains(file) else { return nil }
        return ScenarioError("the target has no file named '\(file)' for a storage fault to aim at; it declares: \(NameList.text(names))",
                             at: location, suggestion: ClosestName.suggestion(for: file, among: names))
    }

    static func check(file: String, at location: SourceLocation, target: TargetDeclaration) -> ScenarioError? {
        let companions = target.files["store"] == nil ? [] : ["wal", "shm", "journal"]
        let names = Set(target.files.keys).union(companions).sorted()
        guard !names.contains(file) else { return nil }
        return ScenarioError("the target has no file named '\(file)'; it has: \(NameList.text(names))",
                             at: location, suggestion: ClosestName.suggestion(for: file, among: names))
    }

    static func check(_ expectation: ScenarioExpectation, target: TargetDeclaration) -> ScenarioError? {
        switch expectation.kind {
        case let .fallback(mode) where mode != Expectation.afterDamage:
            let modes = target.modes
            guard !modes.contains(mode) else { return nil }
            return ScenarioError("the target never reports mode '\(mode)'; its modes: \(NameList.text(modes))",
                                 at: expectation.location, suggestion: ClosestName.suggestion(for: mode, among: modes))
        case let .state(probe, _):
            let probes = target.probes + NetworkLab.probes(of: target)
            guard !probes.contains(where: { probe == $0 || probe.hasPrefix($0 + ".") }) else { return nil }
            // The probes of the same family first (`remote.`): the list a typo is likely in.
            let family = probe.split(separator: ".").first.map { "\($0)." } ?? probe
            let kin = probes.filter { $0.hasPrefix(family) }
            let answers = kin.isEmpty || kin.count == probes.count ? NameList.text(probes)
                : "\(NameList.text(kin)) (its '\(family)' probes; \(probes.count - kin.count) others: \(NameList.text(probes.filter { !kin.contains($0) }, limit: 12)))"
            return ScenarioError("unknown probe '\(probe)' for this target; it answers: \(answers)",
                                 at: expectation.location, suggestion: ClosestName.suggestion(for: probe, among: probes))
        default:
            return nil
        }
    }
}
