import Chaos
import Foundation
import Testing

/// The storage catalog gives the same verdicts run as root and as an unprivileged user:
/// as root, permission bits refuse nothing (a read-only file is written, a read-only
/// folder written into), so a fault that relied on them bit for one and not the other.
/// CI runs as root. Skipped, saying so, where the test cannot switch users.
@Suite(.serialized) struct RootAndUserVerdictTests {
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Every case's verdict of `chaos check` on `example`'s `variant`, as root or as `nobody`.
    static func verdicts(_ example: String, _ variant: String, asNobody: Bool) throws -> [String: Verdict] {
        let folder = try TemporaryFolder()
        _ = chmod(folder.url.path, 0o777)  // the user's own temporary folder, caches and reports
        let arguments = ["check", "-j", "2", "--target-exec", CheckTests.example(example), "--variant", variant,
                         "--report-dir", folder.url.appendingPathComponent("reports").path]
        let environment = ["TMPDIR": folder.url.path, "HOME": folder.url.path, "CHAOS_CACHE_DIR": folder.url.appendingPathComponent("cache").path]
        if asNobody, let setpriv {
            _ = try ChaosExecutable.run(["--reuid", "nobody", "--regid", "nogroup", "--clear-groups", ChaosExecutable.path] + arguments,
                                        executable: setpriv, environment: environment, timeout: .seconds(300))
        } else {
            _ = try ChaosExecutable.run(arguments, environment: environment, timeout: .seconds(300))
        }
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("reports/chaos-report.json"))
        return Dictionary(uniqueKeysWithValues: report.cases.map { ($0.scenario, $0.verdict) })
    }

    /// Every example with files of its own: one variant of each SQLite style (GRDB's
    /// DatabaseQueue, a DatabasePool with a migrator, sqlite-nio's own SQLite, a store
    /// synced to a server Chaos starts) and both variants of the plain-file ones, where the
    /// seam alone refuses (a JSON file, a folder). Orders keeps no file: its data is on a
    /// PostgreSQL server, whose files the app never touches.
    @Test(arguments: [("notes", "fixed"), ("journal", "careful"), ("ledger", "fixed"), ("sync", "fixed"), ("todos", "fixed"),
                      ("todos", "fragile"), ("uploads", "fixed"), ("uploads", "fragile")])
    func theCatalogGivesTheSameVerdictsAsRootAndAsAUser(example: String, variant: String) throws {
        guard getuid() == 0, Self.setpriv != nil, getpwnam("nobody") != nil else {
            print("skipped: switching to an unprivileged user needs root, setpriv and a nobody user")
            return
        }
        let root = try Self.verdicts(example, variant, asNobody: false)
        let user = try Self.verdicts(example, variant, asNobody: true)
        #expect(!root.isEmpty && root.count == user.count, "\(root.count) cases as root, \(user.count) as nobody")
        let differ = root.keys.sorted().filter { root[$0] != user[$0] }.map { "\($0): root \(root[$0]?.rawValue ?? "-"), nobody \(user[$0]?.rawValue ?? "-")" }
        #expect(differ.isEmpty, "\(example) --variant \(variant): \(differ)")
    }
}
