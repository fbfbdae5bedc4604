import Foundation

/// Puts another file in place of one of the app's files while the app is down: a
/// user's damaged database from a crash report, or one of SQLite's own corrupt test
/// databases.
///
/// ```yaml
/// - fault: replace-file
///   file: store                        # logical file name; default store
///   with: fixtures/corrupt-freelist.db # required
/// ```
///
/// `with:` resolves, when the scenario is loaded, to: the path itself when absolute;
/// in a bundled scenario, a path starting with `fixtures/` to the bundled fixtures
/// folder; any other relative path to the scenario file's folder (the current
/// directory for a scenario read from a string). The loader checks that the file
/// exists. The target's `-wal` and `-shm` are removed with it (see ``FileDamage``).
package struct ReplaceFileFault: FileFault {
    package static let kind = "replace-file"
    package static let summary = "Put another file (a user's damaged database) in place of one of the app's files."
    package static let example = """
        - fault: replace-file
          file: store
          with: fixtures/damaged.db
        """
    package static let parameterKeys = ["file", "with"]
    /// Also while the app runs: the file goes (or another takes its name) under the
    /// handles the app holds open, as a cleaner, a restore or another process does it.
    package static let actsWhileRunning = true
    /// A replacement goes in place whether or not the app left a file there.
    package static let needsTheFile = false

    package var file: String
    /// The `with:` path as written.
    package var path: String
    /// The replacement, resolved when loaded.
    package var replacement: URL

    package init(file: String = "store", replacement: URL) {
        self.file = file
        self.path = replacement.path
        self.replacement = replacement
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        file = try LogicalFileName.read(parameters)
        path = try parameters.requiredString("with")
        if let fixtures = parameters.fixturesDirectory, path.hasPrefix("fixtures/") {
            replacement = fixtures.appendingPathComponent(String(path.dropFirst("fixtures/".count))).standardizedFileURL
        } else {
            let base = parameters.baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let beside = Self.resolve(path, relativeTo: base)
            // A catalog scenario opened by path (Sources/Scenarios/catalog/x.yaml) finds
            // its `fixtures/` beside the catalog folder, as the bundle lays them out.
            let sibling = Self.resolve(path, relativeTo: base.deletingLastPathComponent())
            replacement = path.hasPrefix("fixtures/") && !FileManager.default.fileExists(atPath: beside.path)
                && FileManager.default.fileExists(atPath: sibling.path) ? sibling : beside
        }
    }

    /// `with:` resolved against `scenarioDirectory` (an absolute path stays as it is).
    package func resolvedPath(relativeTo scenarioDirectory: URL) -> URL {
        Self.resolve(path, relativeTo: scenarioDirectory)
    }

    static func resolve(_ path: String, relativeTo directory: URL) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        return directory.appendingPathComponent(path).standardizedFileURL
    }

    package var label: String { "\(Self.kind) \(file) (with \(path))" }

    /// The replacement must be a file that exists when the scenario is loaded.
    package func checkWhenLoaded(_ parameters: ScenarioParameters) throws(ScenarioError) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: replacement.path, isDirectory: &isDirectory)
        guard exists, !isDirectory.boolValue else {
            let problem = exists ? "is a directory, not a file" : "does not exist"
            throw parameters.error("the replacement file '\(path)' \(problem) (resolved to \(replacement.path))", at: "with")
        }
    }

    package func plan(fileSize: Int, rng: inout SplitMix64) -> FileDamagePlan { .replace(with: replacement) }
}
