/// The kind of error a trap's message reports — its type and code, not its paths or
/// numbers — so that one `fatalError("Unresolved error \(error)")` holds one finding for
/// each cause that reaches it (a full disk, a damaged file, a half-done migration), and
/// never one for each path, size or row id the message happens to name.
///
/// ```
/// Unresolved error SQLite error 13: database or disk is full - while executing `INSERT …`
///   → Unresolved error SQLite error 13: database or disk is full
/// Failed to open /tmp/chaos-a1/data/app.sqlite (3 attempts)
///   → Failed to open app.sqlite (N attempts)
/// ```
///
/// Hypothesis tells failures apart the same way: by the exception's type and the line
/// that raised it, not by the values in its message.
enum TrapErrorKind {
    /// The error kind of a `Fatal error` message; empty for none.
    static func of(_ message: String?) -> String {
        guard let message else { return "" }
        var line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        // GRDB's context: the statement and its arguments say where, not what.
        for marker in [" - while executing", " with arguments ", " in statement "] {
            if let range = line.range(of: marker) { line = String(line[..<range.lowerBound]) }
        }
        let words = line.split(whereSeparator: \.isWhitespace).map { word in isPath(word) ? fileName(of: String(word)) : String(word) }
        return numbersMasked(words.joined(separator: " "))
    }

    /// A word that names a file: it begins as a path does, or has two slashes (`I/O` is no path).
    static func isPath(_ word: Substring) -> Bool {
        let core = word.drop { "(['\"`".contains($0) }
        return ["/", "~/", "./", "../"].contains { core.hasPrefix($0) } || core.filter { $0 == "/" }.count >= 2
    }

    /// A path cut to its last component, the punctuation around it kept.
    static func fileName(of word: String) -> String {
        let trailing = word.reversed().prefix { ":,;)]'\"`.".contains($0) }
        let leading = word.prefix { "(['\"`".contains($0) }
        let core = word.dropFirst(leading.count).dropLast(trailing.count)
        let name = core.split(separator: "/").last.map(String.init) ?? ""
        return String(leading) + (name.isEmpty ? "PATH" : name) + String(trailing.reversed())
    }

    /// Every number made `N` — unless it is a code: it follows `error`, `code`, `errno`,
    /// `status`, `signal` or `exit` (`SQLite error 13`, `Code=513`, `exited(3)`), or it is part of a name
    /// (`sqlite3_open`, `v2`). Addresses (`0x7f…`) are `0xN`.
    static func numbersMasked(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character.isASCII, character.isNumber else {
                result.append(character)
                index += 1
                continue
            }
            var end = index
            let hex = character == "0" && index + 1 < characters.count && characters[index + 1] == "x"
            if hex {
                end += 2
                while end < characters.count, characters[end].isHexDigit { end += 1 }
            } else {
                while end < characters.count, characters[end].isASCII, characters[end].isNumber
                    || (".,".contains(characters[end]) && end + 1 < characters.count && characters[end + 1].isASCII && characters[end + 1].isNumber) {
                    end += 1
                }
            }
            let before = index > 0 ? characters[index - 1] : " "
            let partOfName = before.isLetter || before == "_"
            if !hex, partOfName || followsCodeWord(characters, at: index) {
                result += String(characters[index..<end])
            } else {
                result += hex ? "0xN" : "N"
            }
            index = end
        }
        return result
    }

    /// Whether the word before position `index` (past spaces, `=`, `:`, `#`) is a code word.
    static func followsCodeWord(_ characters: [Character], at index: Int) -> Bool {
        var end = index
        while end > 0, " =:#(".contains(characters[end - 1]) { end -= 1 }
        var start = end
        while start > 0, characters[start - 1].isLetter { start -= 1 }
        return codeWords.contains(String(characters[start..<end]).lowercased())
    }

    static let codeWords: Set<String> = ["error", "code", "errno", "status", "signal", "exited", "exit", "signaled"]
}
