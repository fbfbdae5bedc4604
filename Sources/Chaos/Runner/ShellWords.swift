import ChaosTarget

/// Words of a command line a user can paste into a POSIX shell.
package enum ShellWords {
    /// `word`, single-quoted when it holds anything a shell would read specially.
    package static func quoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The words of a line ``quoted(_:)`` made (plain words and single-quoted ones), as a
    /// POSIX shell would split it: what a test re-runs a printed reproduce line with.
    package static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            switch character {
            case "\\" where !quoted:
                escaped = true
                inWord = true
            case "'":
                quoted.toggle()
                inWord = true
            case " " where !quoted:
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
