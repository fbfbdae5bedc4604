import Foundation
import Testing

/// The shape the project keeps its sources in: no Swift file under Sources/ over 300
/// lines, no function over 60. A file or a function that grows past them is a sign it
/// holds two things; split it where they meet.
@Suite struct SourceShapeTests {
    static let maxFileLines = 300
    static let maxFunctionLines = 60

    static var sourcesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    static func swiftFiles() -> [URL] {
        let enumerator = FileManager.default.enumerator(at: sourcesDirectory, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    @Test func noSourceFileIsOver300Lines() throws {
        let files = Self.swiftFiles()
        #expect(files.count > 100, "the sources were found (\(Self.sourcesDirectory.path))")
        let long = try files.compactMap { file -> String? in
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
            return lines > Self.maxFileLines ? "\(file.lastPathComponent): \(lines) lines" : nil
        }
        #expect(long.isEmpty, "\(long.joined(separator: "\n"))")
    }

    /// The glue a user writes stays small: every example's target file (the one that
    /// declares a `ChaosTarget`) is at most 40 lines that are neither blank nor comments.
    @Test func everyExamplesTargetIsAtMost40LinesOfGlue() throws {
        let examples = Self.sourcesDirectory.deletingLastPathComponent().appendingPathComponent("Examples")
        let files = (FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "swift" }
        var targets: [String: Int] = [:]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard text.contains(": ChaosTarget {") else { continue }
            targets[file.lastPathComponent] = text.split(separator: "\n").filter { line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return !code.isEmpty && !code.hasPrefix("//")
            }.count
        }
        #expect(targets.count == 7, "the seven examples' targets were found: \(targets.keys.sorted())")
        #expect(targets.values.allSatisfy { $0 <= 40 }, "\(targets.sorted { $0.key < $1.key })")
    }

    @Test func noFunctionIsOver60Lines() throws {
        var long: [String] = []
        for file in Self.swiftFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for function in FunctionSpans.of(text) where function.lines > Self.maxFunctionLines {
                long.append("\(file.lastPathComponent):\(function.line) \(function.name): \(function.lines) lines")
            }
        }
        #expect(long.isEmpty, "\(long.joined(separator: "\n"))")
    }

    /// A case is a pipeline (issue 32): CaseRunner, one file, is at most 300 lines,
    /// and no seam reaches it — a seam works with the case's parts (`SeamContext`: the
    /// app, the ledger, the clock, the files, the log), never the runner.
    @Test func theCaseRunnerIsAPipelineNoSeamReaches() throws {
        let files = Self.swiftFiles()
        let runner = try files.filter { $0.lastPathComponent.hasPrefix("CaseRunner") && $0.path.contains("/Sources/Chaos/Runner/") }
            .map { try String(contentsOf: $0, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
        #expect(runner.count == 1, "the runner is one file, not a type over extension files")
        #expect(runner.reduce(0, +) <= 300, "CaseRunner is \(runner.reduce(0, +)) lines over \(runner.count) files")
        for seam in files where seam.path.contains("/Sources/Chaos/Seams/") {
            let text = try String(contentsOf: seam, encoding: .utf8)
            #expect(!text.contains("CaseRunner") && !text.contains("CaseSession"), "\(seam.lastPathComponent) reaches the runner")
        }
    }

    @Test func theMeasureFindsALongFunctionAndIgnoresStringsAndRequirements() {
        let body = (1...70).map { "        let x\($0) = \"{\" // }" }.joined(separator: "\n")
        let text = """
            protocol P {
                func required(a: Int) -> Int
            }
            struct S {
                func long(
                    a: Int
                ) {
            \(body)
                }
                func short() { }
            }
            """
        let spans = FunctionSpans.of(text)
        #expect(spans.map(\.name) == ["long", "short"])
        #expect(spans.first?.lines == 74)
    }
}

/// Where each function (and initialiser) of a Swift file starts and how many lines it
/// spans, found by matching braces outside strings and comments: a measure, not a parser.
enum FunctionSpans {
    struct Span {
        var name: String
        var line: Int
        var lines: Int
    }

    static func of(_ text: String) -> [Span] {
        var spans: [Span] = []
        var depth = 0
        var open: [(depth: Int, span: Span)] = []
        var pending: Span?
        var inMultilineString = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if raw.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle(); continue }
            if inMultilineString { continue }
            let line = code(of: String(raw))
            if let name = declaredName(in: line) { pending = Span(name: name, line: index + 1, lines: 0) }
            for character in line {
                if character == "{" {
                    if let span = pending { open.append((depth, span)); pending = nil }
                    depth += 1
                } else if character == "}" {
                    pending = nil  // a requirement without a body ends where its scope does
                    depth -= 1
                    if let last = open.last, last.depth == depth {
                        open.removeLast()
                        var span = last.span
                        span.lines = index + 1 - span.line + 1
                        spans.append(span)
                    }
                }
            }
        }
        return spans.sorted { $0.line < $1.line }
    }

    /// The line without string literals and a trailing `//` comment.
    static func code(of line: String) -> String {
        var result = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            if character == "/", previous == "/" { result.removeLast(); break }
            if character == "\"" { inString = true; continue }
            result.append(character)
            previous = character
        }
        return result
    }

    /// `name` of `func name`, or `init`, when the line declares one.
    static func declaredName(in line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "<" }).map(String.init)
        if let index = words.firstIndex(of: "func"), index + 1 < words.count { return words[index + 1] }
        if words.contains(where: { $0 == "init" || $0 == "init?" }) { return "init" }
        return nil
    }
}
