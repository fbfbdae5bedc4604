extension Int {
    /// `7.zeroPadded(width: 4)` is `"0007"`: the numbers in file names (backups,
    /// quarantine folders, diagnostics). Not `String(format:)`: on Linux that goes
    /// through Foundation's format parser and runtime protocol lookups, paid at every
    /// launch (the launch takes a numbered backup).
    func zeroPadded(width: Int) -> String {
        let digits = String(self)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
