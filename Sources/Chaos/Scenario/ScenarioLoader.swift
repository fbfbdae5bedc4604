import Foundation
import StorageCatalog
import ChaosTarget

/// Reads scenario files into ``Scenario`` values, with errors that point at the
/// offending line and column (``ScenarioError``).
///
/// ```swift
/// let scenario = try ScenarioLoader.resolve("corrupted-db", in: target.catalog)   // the target's own, by name
/// let mine = try ScenarioLoader.resolve("scenarios/my-case.yaml", in: nil)       // or a path
/// ```
package enum ScenarioLoader {
    /// Scenario files larger than this are refused: 1 MiB is thousands of steps.
    package static let maximumFileSize = 1 << 20

    /// Loads the scenario file at `url`. Relative `replace-file` paths resolve against its folder.
    package static func load(contentsOf url: URL) throws(ScenarioError) -> Scenario {
        try load(contentsOf: url, fixturesDirectory: nil, requireNameMatchesFile: false)
    }

    /// Loads a scenario from text; `file` names it in errors. Relative paths resolve
    /// against `baseDirectory`, or the current directory when it is nil.
    package static func load(yaml: String, file: String, baseDirectory: URL?) throws(ScenarioError) -> Scenario {
        guard yaml.utf8.count <= maximumFileSize else {
            throw ScenarioError(file: file, line: 0, column: 0, message: "the scenario is larger than \(maximumFileSize) bytes")
        }
        var text = yaml
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return try ScenarioParser(file: file, text: text, baseDirectory: baseDirectory, fixturesDirectory: nil).parse()
    }

    /// How a command line names `scenario`: its name when it is one of a catalog's, else its file.
    package static func subject(of scenario: Scenario) -> String {
        switch scenario.origin {
        case .catalog, .storageCatalog: scenario.name
        case let .file(path): path
        }
    }

    /// A scenario of `catalog` (the target's own) or of the storage catalog by name, or a scenario file by path
    /// (anything ending in `.yaml`/`.yml` or containing a `/`). An unknown name suggests
    /// the closest one of the catalog.
    package static func resolve(_ nameOrPath: String, in catalog: ScenarioCatalog?) throws(ScenarioError) -> Scenario {
        let isPath = nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml") || nameOrPath.contains("/")
        if isPath {
            return try load(contentsOf: URL(fileURLWithPath: nameOrPath))
        }
        if let scenario = try catalog?.scenario(named: nameOrPath) { return scenario }
        // A case of the storage catalog (`check-store-missing`), by the name `chaos check`
        // printed in its reproduce lines: it runs on any target.
        if let folder = StorageCatalog.checkDirectory,
           let scenario = try ScenarioCatalog(folder: folder, fixtures: folder.appendingPathComponent("fixtures"), origin: .storageCatalog)
               .scenario(named: nameOrPath) {
            return scenario
        }
        guard let catalog else {
            throw ScenarioError(file: nameOrPath, line: 0, column: 0,
                                message: "no scenario named '\(nameOrPath)': the target ships no scenarios of its own, and the storage "
                                    + "catalog has none of that name (chaos check --list); give a path to a .yaml file")
        }
        let names = catalog.names
        let known = names.isEmpty ? "the target's catalog is empty" : "the target's: " + names.joined(separator: ", ")
        throw ScenarioError(
            file: nameOrPath, line: 0, column: 0,
            message: "no scenario named '\(nameOrPath)' (\(known)); give a path to a .yaml file to run your own",
            suggestion: ClosestName.suggestion(for: nameOrPath, among: names)
        )
    }

    /// Scenarios by name (of `catalog`), file or folder (every `.yaml`/`.yml` in it, by
    /// file name), in the order given: what `chaos run`, `list` and `validate` take.
    package static func resolve(all subjects: [String], in catalog: ScenarioCatalog?) throws(ScenarioError) -> [Scenario] {
        var scenarios: [Scenario] = []
        for subject in subjects {
            for file in try files(of: subject) { scenarios.append(try resolve(file, in: catalog)) }
        }
        return scenarios
    }

    /// The scenario files a subject names: a folder's `.yaml` files sorted by name, or the
    /// subject itself (a catalog's name or a file). An empty folder is an error.
    package static func files(of subject: String) throws(ScenarioError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: subject, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [subject]
        }
        // Joined to the folder as given, so reports and reproduce lines keep the user's spelling.
        let folder = subject.hasSuffix("/") ? String(subject.dropLast()) : subject
        let found = try scenarioFiles(in: URL(fileURLWithPath: subject)).map { folder + "/" + $0.lastPathComponent }
        guard !found.isEmpty else {
            throw ScenarioError(file: subject, line: 0, column: 0, message: "no scenario files (.yaml) in this folder")
        }
        return found
    }

    // MARK: -

    /// The scenario files of a folder, by file name.
    static func scenarioFiles(in folder: URL) throws(ScenarioError) -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ScenarioError(file: folder.path, line: 0, column: 0, message: "the scenario catalog is missing from this build")
        }
        let urls = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return urls.filter { ["yaml", "yml"].contains($0.pathExtension) }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The storage catalog of `chaos check`, sorted by name.
    package static func storageCatalog() throws(ScenarioError) -> [Scenario] {
        guard let folder = StorageCatalog.checkDirectory else {
            throw ScenarioError(file: "<storage catalog>", line: 0, column: 0, message: "the storage catalog is missing from this build")
        }
        return try ScenarioCatalog(folder: folder, fixtures: folder.appendingPathComponent("fixtures"), origin: .storageCatalog).scenarios()
    }

    static func load(contentsOf url: URL, fixturesDirectory: URL?, requireNameMatchesFile: Bool) throws(ScenarioError) -> Scenario {
        let file = url.isFileURL ? url.relativePath : url.absoluteString
        func fileError(_ message: String) -> ScenarioError {
            ScenarioError(file: file, line: 0, column: 0, message: message)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw fileError("no such scenario file")
        }
        guard !isDirectory.boolValue else { throw fileError("is a directory, not a scenario file") }
        // Check the size before reading: a device or a pipe would never end.
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw fileError("is not a regular file")
        }
        guard ((attributes?[.size] as? NSNumber)?.intValue ?? 0) <= maximumFileSize else {
            throw fileError("the scenario file is larger than \(maximumFileSize) bytes")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw fileError("cannot read the scenario file: \(error.localizedDescription)")
        }
        guard data.count <= maximumFileSize else {
            throw fileError("the scenario file is larger than \(maximumFileSize) bytes")
        }
        let bytes = [UInt8](data)
        guard var text = String(validating: bytes, as: UTF8.self) else {
            let invalid = firstInvalidUTF8(bytes)
            let byte = bytes.indices.contains(invalid.offset) ? String(format: "0x%02X", bytes[invalid.offset]) : "?"
            throw ScenarioError(
                file: file, line: invalid.line, column: invalid.column,
                message: "the scenario file is not UTF-8 text (invalid byte \(byte) at byte offset \(invalid.offset)); save it as UTF-8"
            )
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let parser = ScenarioParser(
            file: file, text: text, baseDirectory: url.deletingLastPathComponent(), fixturesDirectory: fixturesDirectory
        )
        let scenario = try parser.parse()
        let baseName = url.deletingPathExtension().lastPathComponent
        if requireNameMatchesFile, scenario.name != baseName {
            var error = ScenarioError(
                "a catalog scenario's name must be its file's base name '\(baseName)', found '\(scenario.name)'",
                at: nameLocation(in: text, file: file) ?? scenario.location
            )
            error.snippet = ScenarioError.snippet(in: text, line: error.line, column: error.column)
            throw error
        }
        return scenario
    }

    /// Where the `name:` value is, for the catalog's name check.
    static func nameLocation(in text: String, file: String) -> SourceLocation? {
        guard let root = try? ScenarioNode.compose(text, file: file), case let .map(entries) = root.content else { return nil }
        return entries.first { $0.key == "name" }?.value.location
    }

    /// The byte offset, line and column (in scalars) of the first byte that is not valid UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, line: Int, column: Int) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(encoded):
                offset += encoded.count
                if encoded.count == 1, encoded.first == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput, .error:
                return (offset, line, column)
            }
        }
    }
}
