/// Which of a target's declared files a path under its data folder belongs to, so that
/// a storage fault can aim at one of them (`file: backup`) and not the others: the
/// store and its safety copy are often written by the same code, one after the other,
/// and a defect may hide in the copy alone (a copy that fails while the store's write
/// succeeds).
///
/// A path belongs to the longest declared path that names it or that it extends by a
/// suffix (`todos.json` owns `todos.json.tmp` and `app.sqlite` owns `app.sqlite-wal`,
/// unless the target declares `todos.json.backup` or `app.sqlite-wal` itself) or by a
/// folder (`backups` owns `backups/3.sqlite`). What a file's own code writes beside it
/// (a temporary copy, a journal) is that file's.
package struct DeclaredFileOwnership: Sendable, Equatable {
    /// The declared path of the file aimed at, relative to the data folder.
    package var path: String
    /// Every declared path, relative to the data folder.
    package var declared: [String]

    /// The ownership of `name` among `files` (logical name → path); nil when not declared.
    package init?(file name: String, among files: [String: String]) {
        guard let path = files[name] else { return nil }
        self.path = Self.trimmed(path)
        declared = Self.paths(among: files)
    }

    /// Every declared path of `files` (logical name → path), as ownership compares them.
    package static func paths(among files: [String: String]) -> [String] {
        files.values.map(trimmed)
    }

    /// What an undeclared name aims at: no file.
    package static let nothing = DeclaredFileOwnership(path: "", declared: [])

    private init(path: String, declared: [String]) {
        self.path = path
        self.declared = declared
    }

    /// Whether `relative` (a path under the data folder) belongs to the file aimed at.
    package func owns(_ relative: String) -> Bool {
        !path.isEmpty && Self.owner(of: relative, among: declared) == path
    }

    /// The longest declared path that `relative` is, or extends by a suffix or a folder.
    package static func owner(of relative: String, among declared: [String]) -> String? {
        declared.filter { covers($0, relative) }.max { $0.count < $1.count }
    }

    static func covers(_ declared: String, _ relative: String) -> Bool {
        guard !declared.isEmpty, relative.hasPrefix(declared) else { return false }
        guard let next = relative.dropFirst(declared.count).first else { return true }
        return next == "/" || next == "." || next == "-" || next == "_" || next == "~"
    }

    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        while path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
