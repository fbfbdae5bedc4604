import ChaosTarget

/// One step of a hunt's schedule, as the scenario file will say it: the generator makes
/// them, the shrinker drops and simplifies them, and ``HuntSchedule/yaml(name:summary:)``
/// writes them out. Kept as data rather than as ``ScenarioStep``s so that a candidate of
/// the shrinker is a small edit of a list, and the file written is exactly what ran.
package enum HuntStep: Sendable, Equatable {
    case launch, stop, kill
    /// `do: NAME` with its arguments, in the order written.
    case action(String, [HuntKey])
    /// `fault: KIND` and its keys (trigger keys included), in the order written.
    case fault(String, [HuntKey])
    /// `clear: KIND` or `clear: all`.
    case clear(String)
    /// `power-loss: MODE`, now or at a moment (`after-writes: N`, `at-sync: N`): the
    /// short form of the power-loss kind (``PowerLossFault``). A step of its own here,
    /// not a `.fault`, because a cut now ends a run of the app, as a stop or a kill does:
    /// the generator draws it as a run's end, and the shrinker keeps it in its pair.
    case powerLoss(String, HuntKey?)

    /// Starts, ends or cuts a run of the app: what the shrinker keeps in pairs.
    var isLifecycle: Bool {
        switch self {
        case .launch, .stop, .kill, .powerLoss(_, nil): true
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

    /// The step as YAML list item lines (indented for `steps:`).
    var yamlLines: [String] {
        switch self {
        case .launch: return ["  - launch"]
        case .stop: return ["  - stop"]
        case .kill: return ["  - kill"]
        case let .action(name, arguments):
            guard !arguments.isEmpty else { return ["  - do: \(name)"] }
            let with = arguments.map { "\($0.key): \($0.value.yamlText)" }.joined(separator: ", ")
            return ["  - do: \(name)", "    with: { \(with) }"]
        case let .fault(kind, keys):
            return ["  - fault: \(kind)"] + keys.map { "    \($0.key): \($0.value.yamlText)" }
        case let .clear(scope): return ["  - clear: \(scope)"]
        case let .powerLoss(mode, moment):
            return ["  - \(StepKeyword.powerLoss.rawValue): \(mode)"] + (moment.map { ["    \($0.key): \($0.value.yamlText)"] } ?? [])
        }
    }
}

extension ScenarioValue {
    /// The value as a YAML scalar: numbers and flags bare, text always double-quoted
    /// (so `off`, `yes`, `1h` or `""` stay text), escaped as JSON escapes it.
    var yamlText: String {
        switch self {
        case let .string(text):
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case "\t": escaped += "\\t"
                default:
                    if scalar.value < 0x20 { escaped += String(format: "\\u%04X", scalar.value) } else { escaped.unicodeScalars.append(scalar) }
                }
            }
            return "\"\(escaped)\""
        case let .int(number): return String(number)
        case let .double(number): return String(number)
        case let .bool(flag): return flag ? "true" : "false"
        case .null: return "null"
        case let .list(items): return "[" + items.map(\.yamlText).joined(separator: ", ") + "]"
        case let .map(entries):
            return "{ " + entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.yamlText)" }.joined(separator: ", ") + " }"
        }
    }
}
