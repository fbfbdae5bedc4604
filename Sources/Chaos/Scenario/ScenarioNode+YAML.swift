import ChaosTarget
import Yams

extension ScenarioNode {
    /// Composes `text` with Yams and converts the tree; nil for a document with no
    /// content (empty, or only comments).
    static func compose(_ text: String, file: String) throws(ScenarioError) -> ScenarioNode? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw syntaxError(error, text: text, file: file)
        } catch {
            throw ScenarioError("cannot read YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
        guard let root else { return nil }
        var budget = nodeBudget
        let fallback = SourceLocation(file: file, line: 1, column: 1)
        return try convert(root, file: file, parentLocation: fallback, budget: &budget)
    }

    private static func convert(_ node: Node, file: String, parentLocation: SourceLocation, budget: inout Int) throws(ScenarioError) -> ScenarioNode {
        budget -= 1
        let location = node.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) } ?? parentLocation
        guard budget >= 0 else {
            throw ScenarioError(
                "the document is too large: more than \(nodeBudget) YAML nodes once aliases are expanded",
                at: location
            )
        }
        switch node {
        case let .scalar(scalar):
            return ScenarioNode(content: .scalar(scalar.string, quoted: scalar.style != .plain && scalar.style != .any), location: location)
        case let .sequence(sequence):
            var items: [ScenarioNode] = []
            for item in sequence {
                items.append(try convert(item, file: file, parentLocation: location, budget: &budget))
            }
            return ScenarioNode(content: .list(items), location: location)
        case let .mapping(mapping):
            var entries: [Entry] = []
            for (key, value) in mapping {
                let keyNode = try convert(key, file: file, parentLocation: location, budget: &budget)
                guard let keyText = keyNode.scalarText else {
                    throw ScenarioError("a mapping key must be a plain name, found \(keyNode.found)", at: keyNode.location)
                }
                let valueNode = try convert(value, file: file, parentLocation: keyNode.location, budget: &budget)
                entries.append(Entry(key: keyText, keyLocation: keyNode.location, value: valueNode))
            }
            return ScenarioNode(content: .map(entries), location: location)
        case let .alias(alias):
            // Yams resolves aliases while composing; an unresolved one is an error.
            let aliasLocation = alias.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) } ?? location
            throw ScenarioError("unresolved YAML alias '\(alias.anchor.rawValue)'", at: aliasLocation)
        }
    }

    /// A Yams syntax error as a located ``ScenarioError``, keeping libyaml's line and
    /// column (the loader adds the caret snippet).
    private static func syntaxError(_ error: YamlError, text: String, file: String) -> ScenarioError {
        func located(_ message: String, _ line: Int, _ column: Int) -> ScenarioError {
            ScenarioError(file: file, line: max(line, 1), column: max(column, 1), message: message)
        }
        func contextText(_ context: YamlError.Context?) -> String {
            guard let context else { return "" }
            return " (\(context.text) at \(context.mark.line):\(context.mark.column))"
        }
        switch error {
        case let .composer(_, problem, mark, _) where problem == "but found another document":
            return located("a scenario file holds one YAML document, but a second one starts here ('---')", mark.line, mark.column)
        case let .scanner(context, problem, mark, _),
             let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            let tab = scalar(atLine: mark.line, column: mark.column, in: text) == "\t" ? "; YAML indents with spaces, not tabs" : ""
            return located("YAML syntax error: \(problem)\(contextText(context))\(tab)", mark.line, mark.column)
        case let .reader(problem, offset, _, _):
            let (line, column) = lineAndColumn(ofCharacterOffset: offset ?? 0, in: text)
            return located("cannot read the YAML text: \(problem)", line, column)
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return located("duplicate key \(keys) in the same mapping: each key may appear once", context.mark.line, context.mark.column)
        case let .dataCouldNotBeDecoded(encoding):
            return located("the text is not valid \(encoding)", 1, 1)
        default:
            return located("cannot read YAML: \(error)", 1, 1)
        }
    }

    /// The Unicode scalar at a 1-based line and column, nil when out of range.
    static func scalar(atLine line: Int, column: Int, in text: String) -> Unicode.Scalar? {
        guard line >= 1, column >= 1 else { return nil }
        let lines = text.split(separator: "\n", maxSplits: line, omittingEmptySubsequences: false)
        guard lines.indices.contains(line - 1) else { return nil }
        let scalars = Array(lines[line - 1].unicodeScalars.prefix(column))
        return scalars.count == column ? scalars.last : nil
    }

    /// The 1-based line and column (in Unicode scalars) of a character offset.
    static func lineAndColumn(ofCharacterOffset offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in text.prefix(max(0, offset)) {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }
}
