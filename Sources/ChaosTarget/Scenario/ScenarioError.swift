/// A scenario file that cannot be used, said the way a compiler says it:
///
/// ```text
/// scenarios/corrupted-db.yaml:12:12: error: unknown fault kind 'corupt-file' (did you mean 'corrupt-file'?)
///   - fault: corupt-file
///            ^
/// ```
///
/// A bad scenario is user input, not a harness failure: the CLI exits 64 on it.
/// Every error names the file, line and column; an unknown name comes with the
/// closest valid one. Errors about the file as a whole (it does not exist, it is not
/// UTF-8) have line 0 and print as `FILE: error: MESSAGE`.
package struct ScenarioError: Error, CustomStringConvertible, Sendable, Equatable {
    package var file: String
    /// 1-based; 0 when the error is about the whole file.
    package var line: Int
    /// 1-based, in Unicode scalars; 0 when the error is about the whole file.
    package var column: Int
    /// What is wrong and, where it helps, how to fix it. One line.
    package var message: String
    /// The closest valid name, for an unknown one.
    package var suggestion: String?
    /// The offending source line and a caret under the column, printed after the message.
    package var snippet: String?

    package init(file: String, line: Int, column: Int, message: String, suggestion: String? = nil, snippet: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.suggestion = suggestion
        self.snippet = snippet
    }

    package init(_ message: String, at location: SourceLocation, suggestion: String? = nil) {
        self.init(file: location.file, line: location.line, column: location.column, message: message, suggestion: suggestion)
    }

    package var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    package var description: String {
        let position = line > 0 ? "\(file):\(line):\(column)" : file
        var text = "\(position): error: \(message)"
        if let suggestion { text += " (did you mean '\(suggestion)'?)" }
        if let snippet, !snippet.isEmpty { text += "\n" + snippet }
        return text
    }
}

extension ScenarioError {
    /// An unknown name, with the closest of `candidates` as a suggestion when one is close.
    package static func unknown(_ what: String, _ name: String, among candidates: [String], at location: SourceLocation) -> ScenarioError {
        let known = candidates.joined(separator: ", ")
        return ScenarioError(
            "unknown \(what) '\(name)'; expected one of: \(known)",
            at: location,
            suggestion: ClosestName.suggestion(for: name, among: candidates)
        )
    }

    /// The source line of `line` with a caret under `column`, Yams-style; nil when out of range.
    package static func snippet(in text: String, line: Int, column: Int) -> String? {
        guard line > 0 else { return nil }
        var current = 1
        for lineText in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == line {
                var contents = String(lineText)
                if contents.hasSuffix("\r") { contents.removeLast() }
                let caretOffset = max(0, min(column - 1, contents.unicodeScalars.count))
                let pad = contents.unicodeScalars.prefix(caretOffset).map { $0 == "\t" ? "\t" : " " }.joined()
                return contents + "\n" + pad + "^"
            }
            current += 1
        }
        return nil
    }
}
