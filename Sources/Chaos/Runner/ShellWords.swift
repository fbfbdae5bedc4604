import ChaosTarget

/// Words of a command line a user can paste into a POSIX shell.
enum ShellWords {
    /// `word`, single-quoted when it holds anything a shell would read specially.
    static func quoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
