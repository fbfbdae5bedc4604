/// The YAML document as the loader walks it: Yams's node tree reduced to what a
/// scenario needs (scalars, lists, mappings with their keys in order), every node
/// with its ``SourceLocation``. Sendable, so that ``ScenarioParameters`` can hold it.
///
/// Built by ``compose(_:file:)`` with a budget on the number of nodes, because YAML
/// aliases let a few lines expand into billions of nodes.
package struct ScenarioNode: Sendable {
    package enum Content: Sendable {
        /// `quoted` is true for any non-plain style (quoted, literal, folded): such a
        /// scalar is a string whatever it says.
        case scalar(String, quoted: Bool)
        case list([ScenarioNode])
        case map([Entry])
    }

    package struct Entry: Sendable {
        package init(key: String, keyLocation: SourceLocation, value: ScenarioNode) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }

        package var key: String
        package var keyLocation: SourceLocation
        package var value: ScenarioNode
    }

    package var content: Content
    package var location: SourceLocation

    package init(content: Content, location: SourceLocation) {
        self.content = content
        self.location = location
    }

    /// At most this many nodes per document, aliases expanded.
    package static let nodeBudget = 100_000

    /// What the node is, for "expected X, found Y" messages.
    package var found: String {
        switch content {
        case let .scalar(text, quoted):
            if text.isEmpty && !quoted { return "nothing" }
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "'\(shown)'"
        case .list: return "a list"
        case .map: return "a mapping"
        }
    }

    /// The scalar's text, or nil for a list or mapping.
    package var scalarText: String? {
        if case let .scalar(text, _) = content { return text }
        return nil
    }

    /// The node as a ``ScenarioValue``.
    package var value: ScenarioValue {
        switch content {
        case let .scalar(text, quoted):
            return quoted ? .string(text) : ScenarioValue(plainScalar: text)
        case let .list(items):
            return .list(items.map(\.value))
        case let .map(entries):
            var map: [String: ScenarioValue] = [:]
            for entry in entries { map[entry.key] = entry.value.value }
            return .map(map)
        }
    }
}
