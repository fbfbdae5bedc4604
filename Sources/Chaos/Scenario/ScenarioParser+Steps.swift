import Foundation
import ChaosTarget

extension ScenarioParser {
    /// One item of `steps:`: a bare word or a mapping led by its kind.
    func parseStep(_ node: ScenarioNode) throws(ScenarioError) -> ScenarioStep {
        let allKeywords = StepKeyword.allCases.map(\.rawValue)
        switch node.content {
        case let .scalar(text, _):
            guard let keyword = StepKeyword(rawValue: text) else {
                throw ScenarioError.unknown("step", text, among: allKeywords, at: node.location)
            }
            guard let action = keyword.bareAction else {
                throw ScenarioError("step '\(text)' needs a value, like '- \(text): \(Self.placeholder(keyword))'", at: node.location)
            }
            return ScenarioStep(action: action, location: node.location, written: WrittenStep(node))

        case .list:
            throw ScenarioError("a step is a word (- launch) or a mapping (- do: ACTION), found a list", at: node.location)

        case let .map(entries):
            let leads = entries.filter { StepKeyword(rawValue: $0.key) != nil }
            guard let lead = leads.first, let keyword = StepKeyword(rawValue: lead.key) else {
                let first = entries.first
                throw ScenarioError.unknown("step", first?.key ?? "", among: allKeywords, at: first?.keyLocation ?? node.location)
            }
            if leads.count > 1 {
                let second = leads[1]
                throw ScenarioError(
                    "a step has one kind, but this one has both '\(lead.key)' and '\(second.key)': start a new list item with '- \(second.key):'",
                    at: second.keyLocation
                )
            }
            let action: StepAction
            switch keyword {
            case .do: action = try parseAction(node, entries, lead)
            case .checkpoint: action = try parseCheckpoint(node, entries, lead)
            case .fault: action = try parseFault(node, entries, lead)
            case .clear: action = try parseClear(node, entries, lead)
            case .wait: action = try parseWait(node, entries, lead)
            case .powerLoss: action = try parsePowerLoss(node, entries, lead)
            case .suspend: action = try parseSuspend(node, entries, lead)
            case .launch, .stop, .kill, .resume:
                throw ScenarioError("'\(keyword.rawValue)' takes no value: write '- \(keyword.rawValue)'", at: lead.keyLocation)
            }
            return ScenarioStep(action: action, location: node.location, written: WrittenStep(node))
        }
    }

    static func placeholder(_ keyword: StepKeyword) -> String {
        switch keyword {
        case .do: "favorites.add"
        case .checkpoint: "before-fault"
        case .fault: CorruptFileFault.kind
        case .clear: "all"
        case .wait: "250ms"
        case .powerLoss: "torn"
        case .suspend: SuspendStep.Moment.whileSaving.rawValue
        case .launch, .stop, .kill, .resume: ""
        }
    }

    /// Rejects any key of `entries` not in `allowed` (the lead key is always allowed).
    func checkKeys(_ entries: [ScenarioNode.Entry], allowed: [String], lead: ScenarioNode.Entry, context: String) throws(ScenarioError) {
        let accepted = allowed.filter { $0 != lead.key }
        for entry in entries where entry.key != lead.key && !accepted.contains(entry.key) {
            let expected = accepted.isEmpty ? "it takes no other keys" : "expected one of: " + accepted.joined(separator: ", ")
            throw ScenarioError(
                "unknown key '\(entry.key)' in \(context); \(expected)",
                at: entry.keyLocation,
                suggestion: ClosestName.suggestion(for: entry.key, among: accepted)
            )
        }
    }

    // MARK: do

    private func parseAction(_ node: ScenarioNode, _ entries: [ScenarioNode.Entry], _ lead: ScenarioNode.Entry) throws(ScenarioError) -> StepAction {
        let name = try lead.value.nonEmptyText("'do'", expected: "an action name like favorites.add")
        guard Self.isActionName(name) else {
            throw ScenarioError("'do' needs an action name like favorites.add ([A-Za-z0-9._-]+), found '\(name)'", at: lead.value.location)
        }
        let context = "step 'do: \(name)'"
        try checkKeys(entries, allowed: ActionStep.keys, lead: lead, context: context)
        let parameters = parameters(context, node, entries)
        var arguments: [String: ScenarioValue] = [:]
        if let with = parameters.entry("with") {
            // `with:` with nothing after it is no arguments.
            if case let .scalar(text, quoted) = with.value.content, text.isEmpty, !quoted {
            } else {
                let pairs = try with.value.entries("'with' of \(context)", expected: "a mapping of arguments, like { count: 25 }")
                for pair in pairs { arguments[pair.key] = pair.value.value }
            }
        }
        let repeatCount = try parameters.int("repeat", in: ActionStep.repeatRange, default: 1)
        let expectError = try parameters.bool("expect-error")
        let process = try parameters.oneOf("in", ActionStep.processes)
        return .perform(ActionStep(name: name, arguments: arguments, repeatCount: repeatCount, expectError: expectError,
                                   inPeer: process == "peer"))
    }

    /// `[A-Za-z0-9._-]+`, at most 100 characters: `favorites.add`, `quiz.generate`.
    static func isActionName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 100 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    // MARK: checkpoint

    private func parseCheckpoint(_ node: ScenarioNode, _ entries: [ScenarioNode.Entry], _ lead: ScenarioNode.Entry) throws(ScenarioError) -> StepAction {
        try checkKeys(entries, allowed: ["checkpoint"], lead: lead, context: "a 'checkpoint' step")
        let name = try lead.value.nonEmptyText("'checkpoint'", expected: "a name like before-fault")
        guard Self.isCheckpointName(name) else {
            throw ScenarioError("a checkpoint name is [A-Za-z0-9][A-Za-z0-9._-]*, at most 64 characters, found '\(name)'", at: lead.value.location)
        }
        guard name != Expectation.acknowledged else {
            throw ScenarioError("'\(Expectation.acknowledged)' is reserved: 'preserved: acknowledged' means every acknowledged write; choose another checkpoint name", at: lead.value.location)
        }
        return .checkpoint(name)
    }

    static func isCheckpointName(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first.isNumber, text.count <= 64 else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    // MARK: fault

    private func parseFault(_ node: ScenarioNode, _ entries: [ScenarioNode.Entry], _ lead: ScenarioNode.Entry) throws(ScenarioError) -> StepAction {
        let kindName = try lead.value.nonEmptyText("'fault'", expected: "a fault kind like corrupt-file")
        guard let kind = FaultCatalog.kind(named: kindName) else {
            throw ScenarioError.unknown("fault kind", kindName, among: FaultCatalog.kinds, at: lead.value.location)
        }
        let context = "fault '\(kindName)'"
        let accepted = kind.acceptedKeys + (kind.family == .file || kind.family == .storage ? [FaultStep.ifAbsentKey] : [])
            + (kind.family == .network ? [FaultStep.remoteKey] : [])
        for entry in entries where entry.key != lead.key && !accepted.contains(entry.key) && Trigger.keys.contains(entry.key) {
            if !kind.acceptsTrigger {
                throw ScenarioError(
                    "'\(entry.key)' is a trigger key, but \(kindName) acts once, when its step runs: it takes no trigger (after, times, probability, on)",
                    at: entry.keyLocation
                )
            }
            throw ScenarioError("'on' chooses a storage file, which \(kindName) does not take", at: entry.keyLocation)
        }
        try checkKeys(entries, allowed: accepted, lead: lead, context: context)
        let parameters = parameters(context, node, entries)
        let fault = try kind.init(parameters: parameters)
        try fault.checkWhenLoaded(parameters)
        let trigger = kind.acceptsTrigger ? try Trigger(parameters: parameters, acceptsStorageFile: kind.acceptsStorageFile) : Trigger()
        var step = FaultStep(fault: AnyFault(fault), trigger: trigger)
        if let absent = try parameters.oneOf(FaultStep.ifAbsentKey, FaultStep.IfAbsent.allCases.map(\.rawValue)) {
            step.ifAbsent = FaultStep.IfAbsent(rawValue: absent) ?? .noEffect
        }
        if kind.family == .network, let remote = entries.first(where: { $0.key == FaultStep.remoteKey }) {
            step.remote = try remote.value.nonEmptyText("'remote'", expected: "the name of one of the target's remotes")
            step.remoteLocation = remote.value.location
        }
        return .fault(step)
    }

    // MARK: clear, wait

    private func parseClear(_ node: ScenarioNode, _ entries: [ScenarioNode.Entry], _ lead: ScenarioNode.Entry) throws(ScenarioError) -> StepAction {
        try checkKeys(entries, allowed: ["clear"], lead: lead, context: "a 'clear' step")
        let kind = try lead.value.nonEmptyText("'clear'", expected: "a fault kind, 'power-loss' or 'all'")
        if kind == ClearScope.all.label { return .clear(.all) }
        guard FaultCatalog.kind(named: kind) != nil else {
            throw ScenarioError.unknown("fault kind", kind, among: FaultCatalog.kinds + ["all"], at: lead.value.location)
        }
        return .clear(.kind(kind))
    }

    private func parseWait(_ node: ScenarioNode, _ entries: [ScenarioNode.Entry], _ lead: ScenarioNode.Entry) throws(ScenarioError) -> StepAction {
        try checkKeys(entries, allowed: ["wait"], lead: lead, context: "a 'wait' step")
        let text = try lead.value.nonEmptyText("'wait'", expected: "a duration like 250ms")
        let duration = try ScenarioDuration.parse(text, at: lead.value.location)
        guard duration <= Scenario.maximumTimeout else {
            throw ScenarioError("'wait' is longer than the longest timeout (\(ScenarioDuration.format(Scenario.maximumTimeout))), found '\(text)'", at: lead.value.location)
        }
        return .wait(duration)
    }

    // MARK: suspend

    /// `- suspend`, `- suspend: now | while-saving`, with `notice:`.
    private func parseSuspend(_ node: ScenarioNode, _ entries: [ScenarioNode.Entry], _ lead: ScenarioNode.Entry) throws(ScenarioError) -> StepAction {
        try checkKeys(entries, allowed: SuspendStep.keys, lead: lead, context: "a 'suspend' step")
        var step = SuspendStep()
        if case let .scalar(text, quoted) = lead.value.content, !(text.isEmpty && !quoted) {
            guard let moment = SuspendStep.Moment(rawValue: text) else {
                throw ScenarioError.unknown("suspension moment", text, among: SuspendStep.Moment.allCases.map(\.rawValue), at: lead.value.location)
            }
            step.moment = moment
        }
        let parameters = parameters("a 'suspend' step", node, entries)
        step.notice = try parameters.duration("notice") ?? .zero
        guard step.notice <= SuspendStep.longestNotice else {
            throw parameters.error("'notice' is at most \(ScenarioDuration.format(SuspendStep.longestNotice)) (iOS gives a background task about that)", at: "notice")
        }
        return .suspend(step)
    }

    // MARK: power-loss

    /// `- power-loss: MODE` and its moment: ``PowerLossFault`` written short.
    private func parsePowerLoss(_ node: ScenarioNode, _ entries: [ScenarioNode.Entry], _ lead: ScenarioNode.Entry) throws(ScenarioError) -> StepAction {
        try checkKeys(entries, allowed: PowerLossFault.parameterKeys, lead: lead, context: "a 'power-loss' step")
        let parameters = parameters("step 'power-loss'", node, entries)
        var fault = try PowerLossFault(parameters: parameters)
        if case let .scalar(text, quoted) = lead.value.content, !(text.isEmpty && !quoted) {
            guard let mode = PowerLossFault.Mode(rawValue: text) else {
                throw ScenarioError.unknown("power-loss mode", text, among: PowerLossFault.Mode.allCases.map(\.rawValue), at: lead.value.location)
            }
            if parameters.contains("mode") {
                throw parameters.error("the mode is written twice: keep '- power-loss: \(text)' or 'mode: \(fault.mode.rawValue)'", at: "mode")
            }
            fault.mode = mode
        }
        return .fault(FaultStep(fault: AnyFault(fault)))
    }
}
