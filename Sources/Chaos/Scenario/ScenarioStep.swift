import ChaosTarget

/// One step of a scenario, with where it was written and how to show it.
package struct ScenarioStep: Sendable, Equatable {
    package var action: StepAction
    package var location: SourceLocation
    /// Human text for reports and logs: `do favorites.add {count: 25} ×3`,
    /// `fault corrupt-file store (garbage-header)`, `wait 250ms`.
    package var label: String
    /// Written in the scenario, or added by a sweep's trial plan (``TrialPlan``).
    package var origin: Origin
    /// The step as its file wrote it, what ``ScenarioWriter`` writes back; nil for a step
    /// no file wrote (a sweep trial's).
    package var written: WrittenStep?

    package enum Origin: Sendable, Equatable {
        /// A step of the scenario file: numbered from 1, in order.
        case scenario
        /// A step a sweep trial adds: not numbered, so the scenario's own steps keep
        /// their numbers (and seeds); its fault's id is ``TrialPlan/faultID``.
        case trial
    }

    package init(action: StepAction, location: SourceLocation, label: String? = nil, origin: Origin = .scenario,
                 written: WrittenStep? = nil) {
        self.action = action
        self.location = location
        self.label = label ?? action.label
        self.origin = origin
        self.written = written
    }
}

/// What a step does. In YAML a step is a bare word (`- launch`, `- stop`, `- kill`) or a
/// mapping led by its kind (`- do: favorites.add`, `- checkpoint: x`,
/// `- fault: corrupt-file`, `- clear: all`, `- wait: 1s`).
package enum StepAction: Sendable, Equatable {
    /// Start a worker process hosting the app.
    case launch
    /// Stop the app gracefully.
    case stop
    /// SIGKILL the app.
    case kill
    /// `do: NAME` with optional `with:`, `repeat:` and `expect-error:`.
    case perform(ActionStep)
    /// `checkpoint: NAME`: snapshot all user data under that name.
    case checkpoint(String)
    /// `fault: KIND` with the kind's own keys and, for faults that fire repeatedly, a trigger.
    case fault(FaultStep)
    /// `clear: KIND` (a catalog kind, `power-loss` among them) or `clear: all`.
    case clear(ClearScope)
    /// `wait: 250ms`.
    case wait(Duration)
    /// `suspend`: the app goes to the background and is stopped as iOS suspends it.
    case suspend(SuspendStep)
    /// `resume`: a suspended app continues.
    case resume

    /// The step's wire name: `launch`, `do`, `fault`, ...
    package var wireName: String { keyword.rawValue }

    var keyword: StepKeyword {
        switch self {
        case .launch: .launch
        case .stop: .stop
        case .kill: .kill
        case .perform: .do
        case .checkpoint: .checkpoint
        case .fault: .fault
        case .clear: .clear
        case .wait: .wait
        case .suspend: .suspend
        case .resume: .resume
        }
    }

    /// Human text: see ``ScenarioStep/label``.
    package var label: String {
        switch self {
        case .launch, .stop, .kill, .resume: return wireName
        case let .suspend(suspend): return suspend.label
        case let .perform(action): return action.label
        case let .checkpoint(name): return "checkpoint \(name)"
        case let .fault(fault): return fault.label
        case let .clear(scope): return "clear \(scope.label)"
        case let .wait(duration): return "wait \(ScenarioDuration.format(duration))"
        }
    }

    /// Whether the step needs a running app (`do`, `checkpoint`, `suspend`, `resume`); a
    /// `do` in the peer needs the peer only, which runs with the app or without it.
    var touchesApp: Bool {
        switch self {
        case let .perform(action): !action.inPeer
        case .checkpoint, .suspend, .resume: true
        default: false
        }
    }
}

/// The step kinds by wire name, declared once. `launch`, `stop` and `kill` are bare
/// words; the others lead a mapping. `power-loss` is ``PowerLossFault`` written short
/// (`- power-loss: torn` for `- fault: power-loss` with `mode: torn`), bare or leading.
package enum StepKeyword: String, CaseIterable, Sendable {
    case launch, stop, kill
    case `do`, checkpoint, fault, clear, wait
    case powerLoss = "power-loss"
    case suspend, resume

    /// Written as a bare word, without a value.
    package var isBare: Bool { bareAction != nil }

    /// The action of a bare word; nil for the kinds that lead a mapping.
    var bareAction: StepAction? {
        switch self {
        case .launch: .launch
        case .stop: .stop
        case .kill: .kill
        case .powerLoss: .fault(FaultStep(fault: AnyFault(PowerLossFault())))
        case .suspend: .suspend(SuspendStep())
        case .resume: .resume
        case .do, .checkpoint, .fault, .clear, .wait: nil
        }
    }
}

/// `do: NAME`: perform one of the target's named actions.
///
/// ```yaml
/// - do: favorites.add
///   with: { count: 25 }
///   repeat: 3
///   expect-error: false
/// ```
package struct ActionStep: Sendable, Equatable {
    /// The target's action name, e.g. `favorites.add`.
    package var name: String
    /// `with:`; empty when absent.
    package var arguments: [String: ScenarioValue]
    /// `repeat:`, 1...100000; 1 when absent.
    package var repeatCount: Int
    /// `expect-error:`; nil when absent (either outcome is fine for the step itself).
    package var expectError: Bool?
    /// `in: peer`: asked of another process of the app on its shared store (its widget,
    /// its extension), not of the app; false when absent.
    package var inPeer = false

    package init(name: String, arguments: [String: ScenarioValue] = [:], repeatCount: Int = 1, expectError: Bool? = nil,
                 inPeer: Bool = false) {
        self.name = name
        self.arguments = arguments
        self.repeatCount = repeatCount
        self.expectError = expectError
        self.inPeer = inPeer
    }

    package static let repeatRange = 1...100_000
    /// The keys a `do` step accepts, declared once.
    static let keys = ["do", "with", "repeat", "expect-error", "in"]
    /// The processes `in:` names: the app (the default) or its peer.
    static let processes = ["app", "peer"]

    /// `do favorites.add {count: 25} ×3 (expect error)`.
    package var label: String {
        var text = "do \(name)"
        if !arguments.isEmpty { text += " " + ScenarioValue.map(arguments).description }
        if repeatCount > 1 { text += " ×\(repeatCount)" }
        if let expectError { text += expectError ? " (expect error)" : " (expect success)" }
        if inPeer { text += " in peer" }
        return text
    }
}

/// What a `clear` step disarms.
package enum ClearScope: Sendable, Equatable {
    /// `clear: all`: every fault, and a power loss waiting for its moment.
    case all
    /// `clear: KIND`: every armed fault of a catalog kind (`power-loss`: a cut waiting
    /// for its moment).
    case kind(String)
    /// One armed fault, by id: what a sweep's trial plan clears.
    case fault(id: String)

    /// As the scenario writes it.
    package var label: String {
        switch self {
        case .all: "all"
        case let .kind(kind): kind
        case let .fault(id): id
        }
    }
}

/// `fault: KIND`: a fault of the catalog and when it fires.
package struct FaultStep: Sendable, Equatable {
    package var fault: AnyFault
    /// Always ``Trigger/init()`` (fire on every hit, from the first) for kinds that do
    /// not accept a trigger.
    package var trigger: Trigger
    /// A file fault whose file is not there, a storage fault whose operation the target's
    /// seam does not have (locks of a target without SQLite): a fault with no effect (the
    /// case cannot pass: `inconclusive`), or a case that does not apply to this app (`skipped`).
    package var ifAbsent: IfAbsent = .noEffect
    /// `remote: NAME` on a network fault: which of the target's remotes it acts on (nil:
    /// the only one it declares).
    package var remote: String?
    /// Where `remote:` is written, for the check against the target.
    package var remoteLocation: SourceLocation?

    package static let remoteKey = "remote"

    /// `if-absent: skip | no-effect` on a file or storage fault.
    package enum IfAbsent: String, Sendable, CaseIterable {
        case noEffect = "no-effect"
        case skip
    }

    package static let ifAbsentKey = "if-absent"

    package init(fault: AnyFault, trigger: Trigger = Trigger()) {
        self.fault = fault
        self.trigger = trigger
    }

    /// `fault corrupt-file store (garbage-header)`, `fault throw store/favorites/fetch after 3, 2 times`.
    package var label: String {
        let when = trigger.label
        return "fault \(fault.label)" + (when.isEmpty ? "" : " \(when)")
    }
}

/// One step as a scenario file writes it: its keyword, the value after it and the keys
/// below it, in the order written. The parser reads every step of a file into one
/// (``ScenarioStep/written``) beside what it does; ``ScenarioWriter`` writes them back; a
/// hunt generates and shrinks lists of them, so a candidate of the shrinker is a small
/// edit of a list and the file a finding writes is exactly what ran.
package enum WrittenStep: Sendable, Equatable {
    case launch, stop, kill
    /// `do: NAME`, its `with:` arguments and its other keys (`repeat`, `expect-error`),
    /// each in the order written.
    case action(String, [HuntKey], [HuntKey])
    /// `fault: KIND` and its keys (trigger keys included), in the order written.
    case fault(String, [HuntKey])
    /// `clear: KIND` or `clear: all`.
    case clear(String)
    /// `power-loss: MODE` (nil: bare `- power-loss`) and its keys — the moment
    /// (`after-writes: N`, `at-sync: N`) — the short form of the power-loss kind
    /// (``PowerLossFault``). A step of its own, not a `.fault`, because a cut now ends a
    /// run of the app, as a stop or a kill does: the hunt draws it as a run's end, and its
    /// shrinker keeps it in its pair.
    case powerLoss(String?, [HuntKey])
    /// `checkpoint: NAME`.
    case checkpoint(String)
    /// `wait: DURATION`, as written (`250ms`).
    case wait(String)
    /// `suspend: MOMENT` (nil: bare `- suspend`) and its keys (`notice`).
    case suspend(String?, [HuntKey])
    case resume

    /// A list item of `steps:` as written; nil for a node no step is written as (the
    /// parser refuses those with their line before this is asked).
    init?(_ node: ScenarioNode) {
        switch node.content {
        case let .scalar(word, _):
            switch StepKeyword(rawValue: word) {
            case .launch: self = .launch
            case .stop: self = .stop
            case .kill: self = .kill
            case .powerLoss: self = .powerLoss(nil, [])
            case .suspend: self = .suspend(nil, [])
            case .resume: self = .resume
            default: return nil
            }
        case let .map(entries):
            guard let head = entries.first(where: { StepKeyword(rawValue: $0.key) != nil }), let keyword = StepKeyword(rawValue: head.key),
                  let value = head.value.scalarText else { return nil }
            let rest = entries.filter { $0.key != head.key }.map { HuntKey($0.key, $0.value.value) }
            switch keyword {
            case .do:
                guard let with = entries.first(where: { $0.key == "with" })?.value else {
                    self = .action(value, [], rest)
                    return
                }
                let arguments: [HuntKey] = if case let .map(pairs) = with.content { pairs.map { HuntKey($0.key, $0.value.value) } } else { [] }
                self = .action(value, arguments, rest.filter { $0.key != "with" })
            case .fault: self = .fault(value, rest)
            case .clear: self = .clear(value)
            case .powerLoss: self = .powerLoss(value.isEmpty ? nil : value, rest)
            case .checkpoint: self = .checkpoint(value)
            case .wait: self = .wait(value)
            case .suspend: self = .suspend(value.isEmpty ? nil : value, rest)
            case .launch, .stop, .kill, .resume: return nil
            }
        case .list: return nil
        }
    }
}
