import Chaos
import Foundation
import Testing

/// A sqlite-nio user's first hour: a package of their own, outside this repository,
/// depending on Chaos by path, whose target links ChaosTarget and sqlite-nio, builds on
/// its first `swift build` (Chaos's C modules, with the system's sqlite3.h, no longer
/// reach its clients), declares sqlite-nio's copy of SQLite in one line, and gets its
/// storage faults in that copy.
@Suite(.serialized) struct ClientPackageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let manifest = """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "Shelf",
            platforms: [.macOS(.v15)],
            dependencies: [
                .package(path: "\(repository.path)"),
                .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
            ],
            targets: [
                .executableTarget(name: "shelf-chaos-target", dependencies: [
                    .product(name: "ChaosTarget", package: "\(repository.lastPathComponent)"),
                    .product(name: "SQLiteNIO", package: "sqlite-nio"),
                ]),
            ]
        )
        """

    /// A shelf of books on sqlite-nio: one insert a save, every failure said.
    static let target = """
        import ChaosTarget
        import Foundation
        import SQLiteNIO

        @main
        final class ShelfTarget: ChaosTarget {
            static let files = ["store": "shelf.sqlite"]
            static let sqlite = [SQLiteLibrary.sqliteNIO]
            static let workload: Workload? = Workload(write: "books.add", read: "books.list")
            static let actions: [TargetAction<ShelfTarget>] = [
                TargetAction("books.add") { target, call in await target.add(call) },
                TargetAction("books.list") { target, _ in await target.list() },
            ]
            private let path: String
            private var connection: SQLiteConnection?
            private var problem: String?

            init(context: TargetContext) {
                try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
                path = context.dataDirectory.appendingPathComponent("shelf.sqlite").path
            }

            func launch() async -> Health {
                do {
                    let connection = try await SQLiteConnection.open(storage: .file(path: path))
                    _ = try await connection.query("CREATE TABLE IF NOT EXISTS book (id INTEGER PRIMARY KEY, title TEXT)")
                    self.connection = connection
                } catch {
                    problem = "The shelf can't be opened."
                }
                return health
            }

            var health: Health { connection == nil ? Health(mode: .inMemory, severity: .error, message: problem) : Health() }
            var surfaced: Surfaced { problem.map(Surfaced.error) ?? .nothing }

            private func add(_ call: ActionCall) async -> ActionResult {
                guard let connection else { return .failed(problem) }
                do {
                    let rows = try await connection.query("INSERT INTO book (title) VALUES ('a book') RETURNING id")
                    call.acknowledge("book:\\(rows.first?.column("id")?.integer ?? 0)")
                    problem = nil
                    return .done()
                } catch {
                    problem = "The book could not be saved."
                    return .failed(problem)
                }
            }

            private func list() async -> ActionResult {
                guard let connection, let rows = try? await connection.query("SELECT id FROM book") else { return .failed(problem) }
                return .read(.int(rows.count))
            }

            func snapshot() async throws -> [String: [String: String]] {
                guard let connection else { return [:] }
                let rows = try await connection.query("SELECT id, title FROM book")
                return ["book": Dictionary(uniqueKeysWithValues: rows.map { ("book:\\($0.column("id")?.integer ?? 0)", $0.column("title")?.string ?? "") })]
            }

            func stop() async {
                try? await connection?.close()
                connection = nil
            }
        }
        """

    @Test func aClientOnSQLiteNIOBuildsFirstTimeAndItsCopyIsFaulted() throws {
        let package = try TemporaryFolder()
        _ = try package.write("Package.swift", Self.manifest)
        let sources = package.url.appendingPathComponent("Sources/shelf-chaos-target")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Self.target.write(to: sources.appendingPathComponent("ShelfTarget.swift"), atomically: true, encoding: .utf8)
        // Its first build, from nothing: it must pass as it is.
        let build = try ChaosExecutable.run(["swift", "build", "--package-path", package.url.path], executable: "/usr/bin/env",
                                            timeout: .seconds(900))
        #expect(build.exitCode == 0, "the first build failed:\n\(build.stdout.suffix(3_000))\n\(build.stderr.suffix(3_000))")
        guard build.exitCode == 0 else { return }
        let target = package.url.appendingPathComponent(".build/debug/shelf-chaos-target").path
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["check", "--target-exec", target, "--only", "check-io-error-on-save-write",
                                              "--report-dir", reports.url.path])
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        let fault = report.cases.first?.faults?.first { $0.kind == "io-error" }
        #expect(fault?.seam == "vfs" && (fault?.fired ?? 0) > 0, "the fault reached sqlite-nio's copy: \(result.stdout)")

        // Without the line, no storage fault reaches the copy, and each case says why:
        // inconclusive, never passed, a power cut included.
        let source = sources.appendingPathComponent("ShelfTarget.swift")
        try Self.target.replacingOccurrences(of: "    static let sqlite = [SQLiteLibrary.sqliteNIO]\n", with: "")
            .write(to: source, atomically: true, encoding: .utf8)
        let rebuild = try ChaosExecutable.run(["swift", "build", "--package-path", package.url.path], executable: "/usr/bin/env",
                                              timeout: .seconds(900))
        #expect(rebuild.exitCode == 0, "\(rebuild.stderr.suffix(2_000))")
        let undeclared = try TemporaryFolder()
        _ = try ChaosExecutable.run(["check", "--target-exec", target, "--only", "check-io-error-on-save-write", "--only",
                                     "check-power-loss-on-save", "--report-dir", undeclared.url.path])
        let cases = try JSONReportWriter.read(from: undeclared.url.appendingPathComponent(ReportSet.jsonFileName)).cases
        #expect(cases.count == 2 && cases.allSatisfy { $0.verdict == .inconclusive }, "\(cases.map { "\($0.scenario): \($0.verdict)" })")
        for item in cases {
            #expect(item.error?.contains("not the copy the VFS is installed into") == true, "\(item.scenario): \(item.error ?? "")")
        }
    }
}
