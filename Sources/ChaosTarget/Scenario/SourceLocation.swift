/// Where something was written in a scenario file: 1-based line and column
/// (columns count Unicode scalars, as libyaml does).
///
/// Line 0 means "no position": the error is about the file as a whole
/// (it does not exist, it cannot be read).
package struct SourceLocation: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COLUMN`, or `FILE` alone when there is no position.
    package var description: String {
        line > 0 ? "\(file):\(line):\(column)" : file
    }
}
