import Foundation

/// The Swift blocks of a document (README.md, docs/TARGETS.md), as a user would paste
/// them. The convention every ```swift block of those documents keeps (docs/TESTING.md,
/// "Docs that compile"):
///
/// - a block that begins `// swift-tools-version` is a whole `Package.swift`;
/// - a block with `@main` is a whole source file of a target executable;
/// - any other block is part of a target's body — what a user pastes into their
///   `ChaosTarget` class — with the `import`s it needs on its first lines. It is compiled
///   inside a class that adds only the requirements the block does not declare itself
///   (`files`, `actions`, `init(context:)` with a `context`, `launch()`, `snapshot()`,
///   `stop()`), so it must use public names only, and define every other name it uses.
///
/// No block elides code with `…`: what cannot compile as pasted is prose, or a block of
/// another language.
struct DocBlock: Equatable {
    enum Kind: Equatable { case manifest, file, members }

    /// The document's name without extension (`TARGETS`) and the line its fence opens on.
    var document: String
    var line: Int
    var text: String

    var kind: Kind {
        if text.hasPrefix("// swift-tools-version") { return .manifest }
        return text.contains("@main") ? .file : .members
    }

    /// The executable target it is compiled in: named for where it is written.
    var targetName: String { "doc-\(document)-\(line)" }

    /// Every ```swift block of `markdown`.
    static func all(in markdown: String, document: String) -> [DocBlock] {
        var blocks: [DocBlock] = []
        var open: (line: Int, lines: [Substring])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var block = open {
                if line.hasPrefix("```") {
                    blocks.append(DocBlock(document: document, line: block.line, text: block.lines.joined(separator: "\n") + "\n"))
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if line == "```swift" {
                open = (index + 1, [])
            }
        }
        return blocks
    }

    /// The source file it is compiled as: a file block as it is; a members block inside a
    /// target class of its own, its imports above it.
    var source: String {
        guard kind == .members else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let imports = lines.prefix { $0.hasPrefix("import ") || $0.isEmpty }
        let body = lines.dropFirst(imports.count).joined(separator: "\n")
        let name = "DocBlock\(line)"
        var defaults: [String] = []
        if !declares("files") { defaults.append("static let files = [\"store\": \"doc.sqlite\"]") }
        if !declares("actions") { defaults.append("static let actions: [TargetAction<\(name)>] = []") }
        if !text.contains("init(context:") {
            defaults.append("private let context: TargetContext")
            defaults.append("init(context: TargetContext) { self.context = context }")
        }
        if !text.contains("func launch(") { defaults.append("func launch() async -> Health { Health() }") }
        if !text.contains("func snapshot(") { defaults.append("func snapshot() async throws -> [String: [String: String]] { [:] }") }
        if !text.contains("func stop(") { defaults.append("func stop() async {}") }
        return imports.joined(separator: "\n") + """

            import ChaosTarget
            import Foundation

            // \(document).md, the block at line \(line), in a target of its own.
            @main
            final class \(name): ChaosTarget {
            \(body)
                \(defaults.joined(separator: "\n    "))
            }

            """
    }

    private func declares(_ name: String) -> Bool {
        text.contains("static let \(name)") || text.contains("static var \(name)")
    }
}
