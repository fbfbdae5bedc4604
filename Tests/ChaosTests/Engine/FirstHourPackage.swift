import Foundation

/// A user's first hour, as one package outside this repository that depends on Chaos by
/// path, built once for every test that needs it (a client build costs minutes): the app
/// of docs/TARGETS.md's ten minutes (the Notes example's `NotesCore`), every Swift block
/// of README.md and docs/TARGETS.md in an executable of its own (``DocBlock``), and a
/// shelf of books on sqlite-nio with its copy of SQLite declared in one line
/// (`shelf-chaos-target`) and without it (`shelf-undeclared-chaos-target`).
struct FirstHourPackage: Sendable {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let documents = ["README.md", "docs/TARGETS.md"]

    private let temporary: TemporaryFolder
    var folder: URL { temporary.url }
    let blocks: [DocBlock]
    /// Its first `swift build`, from nothing.
    let build: ChaosExecutable.Result

    /// The one build of the run, made by the first test that asks.
    static let shared: Result<FirstHourPackage, any Error> = Result { try FirstHourPackage() }

    /// Every Swift block of the documents.
    static func docBlocks() throws -> [DocBlock] {
        try documents.flatMap { path in
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            return DocBlock.all(in: try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8), document: name)
        }
    }

    private init() throws {
        temporary = try TemporaryFolder(forTheWholeRun: true)
        let folder = temporary.url
        blocks = try Self.docBlocks().filter { $0.kind != .manifest }
        let fileManager = FileManager.default
        let notesCore = folder.appendingPathComponent("Sources/NotesCore")
        try fileManager.createDirectory(at: notesCore, withIntermediateDirectories: true)
        let example = Self.repository.appendingPathComponent("Examples/Notes/Sources/NotesCore")
        for file in try fileManager.contentsOfDirectory(atPath: example.path) where file.hasSuffix(".swift") {
            try fileManager.copyItem(at: example.appendingPathComponent(file), to: notesCore.appendingPathComponent(file))
        }
        var sources: [String: String] = [
            "shelf-chaos-target": ShelfTarget.source,
            "shelf-undeclared-chaos-target": ShelfTarget.source.replacingOccurrences(of: "    static let sqlite = [SQLiteLibrary.sqliteNIO]\n", with: ""),
        ]
        for block in blocks { sources[block.targetName] = block.source }
        for (target, source) in sources {
            let directory = folder.appendingPathComponent("Sources/\(target)")
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            try source.write(to: directory.appendingPathComponent("Main.swift"), atomically: true, encoding: .utf8)
        }
        try Self.manifest(targets: sources.keys.sorted()).write(to: folder.appendingPathComponent("Package.swift"), atomically: true,
                                                                 encoding: .utf8)
        // No debug information: what is checked is what compiles and what it warns, not
        // what a debugger would see, and the link of each executable is most of its cost.
        build = try ChaosExecutable.run(["swift", "build", "--package-path", folder.path, "-debug-info-format", "none"], executable: "/usr/bin/env",
                                        timeout: .seconds(1_200))
    }

    /// The built executable `target`.
    func executable(_ target: String) -> String { folder.appendingPathComponent(".build/debug/\(target)").path }

    /// The warnings the build printed from a source file of this repository, each once.
    var chaosWarnings: [String] {
        let prefix = Self.repository.path + "/"
        let lines = (build.stdout + "\n" + build.stderr).split(separator: "\n").map(String.init)
        return Array(Set(lines.filter { $0.hasPrefix(prefix) && $0.contains(": warning: ") })).sorted()
    }

    /// The errors and warnings the build printed from the files of `block`.
    func diagnostics(of block: DocBlock) -> [String] {
        let prefix = folder.appendingPathComponent("Sources/\(block.targetName)/").path
        return (build.stdout + "\n" + build.stderr).split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix(prefix) && ($0.contains(": error: ") || $0.contains(": warning: ")) }
    }

    private static func manifest(targets: [String]) -> String {
        let chaos = repository.lastPathComponent
        let executables = targets.map { target in
            """
                    .executableTarget(name: "\(target)", dependencies: [
                        "NotesCore", .product(name: "ChaosTarget", package: "\(chaos)"), .product(name: "SQLiteNIO", package: "sqlite-nio"),
                    ]),
            """
        }
        return """
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(
                name: "FirstHour",
                platforms: [.macOS(.v15)],
                dependencies: [
                    .package(path: "\(repository.path)"),
                    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
                    .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
                ],
                targets: [
                    .target(name: "NotesCore", dependencies: [
                        .product(name: "GRDB", package: "GRDB.swift"), .product(name: "FaultPoints", package: "\(chaos)"),
                    ]),
            \(executables.joined(separator: "\n"))
                ]
            )

            """
    }
}
