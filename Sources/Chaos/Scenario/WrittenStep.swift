import ChaosTarget

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

    /// `do: NAME` with `with:` arguments only: the hunt's actions.
    static func action(_ name: String, _ arguments: [HuntKey]) -> WrittenStep { .action(name, arguments, []) }

    /// `power-loss: MODE`, now (no moment) or at a moment: the hunt's cuts.
    static func powerLoss(_ mode: String, _ moment: HuntKey?) -> WrittenStep { .powerLoss(mode, moment.map { [$0] } ?? []) }

    /// Starts, ends or cuts a run of the app: what the shrinker keeps in pairs.
    var isLifecycle: Bool {
        switch self {
        case .launch, .stop, .kill: true
        case let .powerLoss(_, keys): keys.isEmpty
        default: false
        }
    }

    /// A fault or a power loss: what "its faults never bit" is about.
    var injects: Bool {
        switch self {
        case .fault, .powerLoss: true
        default: false
        }
    }

    /// One a hunt writes and shrinks: no checkpoint, no wait, an action without
    /// `repeat:` or `expect-error:`.
    var isHunted: Bool {
        switch self {
        case .checkpoint, .wait: false
        case let .action(_, _, rest): rest.isEmpty
        default: true
        }
    }

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
            case .launch, .stop, .kill: return nil
            }
        case .list: return nil
        }
    }
}
