import Chaos
import Foundation
import Testing

/// The first hour of a user on their own app, in a package outside this repository that
/// depends on Chaos by path (``FirstHourPackage``, built once for all of these): its
/// first `swift build` passes and prints no warning from Chaos's sources; every Swift
/// block of README.md and docs/TARGETS.md compiles as pasted, sqlite-nio's four functions
/// named by hand (`import VaporCSQLite`) among them; a copy of SQLite declared in one line
/// gets its storage faults, and one left undeclared makes each case inconclusive.
@Suite(.serialized) struct ClientPackageTests {
    static func package() throws -> FirstHourPackage {
        let package = try FirstHourPackage.shared.get()
        try #require(package.build.exitCode == 0, """
            the first build failed:
            \(package.blocks.flatMap(package.diagnostics(of:)).joined(separator: "\n"))
            \(package.build.stdout.suffix(3_000))
            \(package.build.stderr.suffix(3_000))
            """)
        return package
    }

    @Test func theFirstBuildPrintsNoWarningFromChaosSources() throws {
        let package = try Self.package()
        #expect(package.chaosWarnings.isEmpty, "\(package.chaosWarnings.count) warnings:\n\(package.chaosWarnings.joined(separator: "\n"))")
    }

    @Test func everySwiftBlockOfTheDocsCompilesAsPastedWithoutAWarning() throws {
        let package = try Self.package()
        #expect(package.blocks.count >= 5, "the blocks were found: \(package.blocks.map(\.targetName))")
        for block in package.blocks {
            #expect(package.diagnostics(of: block).isEmpty, "\(block.document).md:\(block.line): \(package.diagnostics(of: block))")
            #expect(FileManager.default.isExecutableFile(atPath: package.executable(block.targetName)), "\(block.targetName) was built")
        }
    }

    /// The documented fallback for a stripped executable builds on the first build, with
    /// sqlite-nio's own C module imported beside ChaosTarget.
    @Test func sqliteNIOsFourFunctionsNamedByHandBuildTheFirstTime() throws {
        let package = try Self.package()
        let byHand = package.blocks.filter { $0.text.contains("import VaporCSQLite") && $0.text.contains("sqlite_nio_sqlite3_vfs_find") }
        #expect(byHand.count == 1, "docs/TARGETS.md shows the four functions named by hand")
        for block in byHand { #expect(FileManager.default.isExecutableFile(atPath: package.executable(block.targetName))) }
    }

    @Test func aCopyDeclaredInOneLineIsFaultedAndAnUndeclaredOneIsInconclusive() throws {
        let package = try Self.package()
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["check", "--target-exec", package.executable("shelf-chaos-target"), "--only",
                                              "check-io-error-on-save-write", "--report-dir", reports.url.path])
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        let fault = report.cases.first?.faults?.first { $0.kind == "io-error" }
        #expect(fault?.seam == "vfs" && (fault?.fired ?? 0) > 0, "the fault reached sqlite-nio's copy: \(result.stdout)")

        // Without the line, no storage fault reaches the copy, and each case says why:
        // inconclusive, never passed, a power cut included.
        let undeclared = try TemporaryFolder()
        _ = try ChaosExecutable.run(["check", "--target-exec", package.executable("shelf-undeclared-chaos-target"), "--only",
                                     "check-io-error-on-save-write", "--only", "check-power-loss-on-save", "--report-dir", undeclared.url.path])
        let cases = try JSONReportWriter.read(from: undeclared.url.appendingPathComponent(ReportSet.jsonFileName)).cases
        #expect(cases.count == 2 && cases.allSatisfy { $0.verdict == .inconclusive }, "\(cases.map { "\($0.scenario): \($0.verdict)" })")
        for item in cases {
            #expect(item.error?.contains("not the copy the VFS is installed into") == true, "\(item.scenario): \(item.error ?? "")")
        }
    }
}

/// A shelf of books on sqlite-nio: one insert a save, every failure said.
enum ShelfTarget {
    static let source = """
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

}
