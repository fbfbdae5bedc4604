import ChaosTarget

/// Writes a scenario file from its parts: the header, the steps as written
/// (``WrittenStep``) and the expectations as lines. What it writes, the loader reads
/// back to the same written steps — a hunt's finding is written here and shrunk again
/// from the file.
package enum ScenarioWriter {
    /// The whole file.
    package static func text(name: String, summary: String, system: String, seed: UInt64, timeout: String,
                             steps: [WrittenStep], expectations: [String]) -> String {
        var lines = [
            "name: \(name)",
            "summary: \(ScenarioValue.string(summary).yamlText)",
            "system: \(system)",
            "seed: \(seed)",
            "timeout: \(timeout)",
            "steps:",
        ]
        lines += steps.flatMap(lines(of:))
        lines.append("expect:")
        lines += expectations.map { "  - \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A step as YAML list item lines, indented for `steps:`. Names and words (an action,
    /// a kind, a mode, a duration) are written bare, as the format checks them; values
    /// by ``ScenarioValue/yamlText``.
    package static func lines(of step: WrittenStep) -> [String] {
        func keyLines(_ keys: [HuntKey]) -> [String] { keys.map { "    \($0.key): \($0.value.yamlText)" } }
        func led(_ keyword: StepKeyword, _ value: String) -> String { "  - \(keyword.rawValue): \(value)" }
        switch step {
        case .launch: return ["  - launch"]
        case .stop: return ["  - stop"]
        case .kill: return ["  - kill"]
        case let .action(name, arguments, rest):
            let with = arguments.isEmpty ? [] : ["    with: { " + arguments.map { "\($0.key): \($0.value.yamlText)" }.joined(separator: ", ") + " }"]
            return [led(.do, name)] + with + keyLines(rest)
        case let .fault(kind, keys): return [led(.fault, kind)] + keyLines(keys)
        case let .clear(scope): return [led(.clear, scope)]
        case let .powerLoss(mode, keys): return [mode.map { led(.powerLoss, $0) } ?? "  - \(StepKeyword.powerLoss.rawValue)"] + keyLines(keys)
        case let .checkpoint(name): return [led(.checkpoint, name)]
        case let .wait(duration): return [led(.wait, duration)]
        case let .suspend(moment, keys):
            if moment == nil && keys.isEmpty { return ["  - suspend"] }
            return [led(.suspend, moment ?? SuspendStep.Moment.now.rawValue)] + keyLines(keys)
        case .resume: return ["  - resume"]
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
