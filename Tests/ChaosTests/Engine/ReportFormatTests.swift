import Chaos
import Foundation
import Testing

/// The reports as other tools read them: the JSON against its JSON Schema (with
/// Python's jsonschema), the JUnit XML against its XSD (with xmllint), the HTML in
/// headless Chromium. `make test` installs the three tools.
@Suite(.serialized) struct ReportFormatTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let schema = repository.appendingPathComponent("docs/schema/chaos-report.schema.json")
    static let junitSchema = repository.appendingPathComponent("docs/schema/junit.xsd")

    /// A hardened and a legacy run, so passed, deviated and trapped cases are all there;
    /// and a run on a target without SQLite (faults through the libc seam).
    static let reports: [URL] = {
        var written: [URL] = []
        for variant in ["hardened", "legacy"] {
            guard let folder = try? TemporaryFolder(forTheWholeRun: true) else { continue }
            _ = try? ChaosExecutable.run(["run", "corrupted-db", "fetch-throws", "save-throws", "busy-store",
                                          "--variant", variant, "--report-dir", folder.url.path])
            // Keep the folder alive for the whole suite.
            Self.keep.append(folder)
            written.append(folder.url)
        }
        // And a target without SQLite, whose storage faults go through the libc seam.
        if let folder = try? TemporaryFolder(forTheWholeRun: true) {
            _ = try? ChaosExecutable.run(["run", repository.appendingPathComponent("Examples/Todos/scenarios/todos-fsync-fails.yaml").path,
                                          "--target-exec", CheckTests.example("todos"), "--report-dir", folder.url.path])
            Self.keep.append(folder)
            written.append(folder.url)
        }
        return written
    }()
    nonisolated(unsafe) static var keep: [TemporaryFolder] = []

    static func tool(_ executable: String, _ arguments: [String]) throws -> ChaosExecutable.Result {
        let work = try TemporaryFolder()
        let stderrFile = work.url.appendingPathComponent("stderr")
        let child = try ChildProcess(executable: executable, arguments: arguments,
                                     environment: ProcessInfo.processInfo.environment, stderrFile: stderrFile)
        child.closeInput()
        var lines: [String] = []
        let deadline = ContinuousClock.now + .seconds(90)
        loop: while true {
            switch child.readLine(deadline: deadline) {
            case let .line(line): lines.append(line)
            case .endOfFile: break loop
            case .invalidUTF8: continue
            case .timedOut, .tooLong: child.killTree(); break loop
            }
        }
        let code: Int32
        switch child.waitForExit() {
        case let .exited(value): code = value
        case let .signaled(signal): code = 128 + signal
        }
        return .init(exitCode: code, stdout: lines.joined(separator: "\n"),
                     stderr: (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "")
    }

    static func validateJSON(_ file: URL) throws -> ChaosExecutable.Result {
        try tool("/usr/bin/env", ["python3", "-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.validate(json.load(open(sys.argv[2])), schema)
            print("valid")
            """, schema.path, file.path])
    }

    @Test func theJSONReportMatchesItsSchema() throws {
        #expect(Self.reports.count == 3)
        for folder in Self.reports {
            let result = try Self.validateJSON(folder.appendingPathComponent("chaos-report.json"))
            #expect(result.exitCode == 0 && result.stdout == "valid", "\(result.stdout)\n\(result.stderr)")
        }
    }

    @Test func aReportThatBreaksTheSchemaIsCaught() throws {
        let folder = try #require(Self.reports.dropLast().last, "the legacy run, with deviated cases")
        var json = try String(contentsOf: folder.appendingPathComponent("chaos-report.json"), encoding: .utf8)
        json = json.replacingOccurrences(of: "\"verdict\" : \"deviated\"", with: "\"verdict\" : \"sort-of\"")
        let broken = try TemporaryFolder()
        let file = try broken.write("broken.json", json)
        let result = try Self.validateJSON(file)
        #expect(result.exitCode != 0)
        #expect(result.stderr.contains("sort-of"))
    }

    @Test func theJUnitFileValidatesAgainstTheJUnitSchema() throws {
        for folder in Self.reports {
            let result = try Self.tool("/usr/bin/xmllint", ["--noout", "--schema", Self.junitSchema.path,
                                                            folder.appendingPathComponent("junit.xml").path])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stderr.contains("validates"))
        }
        let broken = try TemporaryFolder()
        let file = try broken.write("junit.xml", "<testsuites><testsuite name=\"x\"><testcase name=\"y\"/></testsuite></testsuites>")
        let result = try Self.tool("/usr/bin/xmllint", ["--noout", "--schema", Self.junitSchema.path, file.path])
        #expect(result.exitCode != 0, "a file without the required attributes does not validate")
    }

    @Test func theHTMLLoadsInChromiumWithoutConsoleErrorsAndShowsScriptAsText() throws {
        // A report (from a merge, or another tool) whose scenario name carries markup.
        let hostile = "<script>alert(1)</script>"
        let report = RunReport(
            run: RunInfo(id: "r", startedAt: "2026-11-22T00:00:00Z", chaosVersion: "0.1.0", seed: 1, variant: "legacy",
                         command: "chaos run \(hostile)", target: "built-in"),
            cases: [CaseReport(scenario: hostile, summary: "a \"quoted\" & <b>bold</b> summary", system: "favorites",
                               scenarioFile: "x.yaml", scenarioHash: String(repeating: "0", count: 64), seed: 1,
                               variant: "legacy", verdict: .deviated, durationMs: 10,
                               trap: TrapRecord(signal: 4, signalName: "SIGILL", message: hostile, site: "X.swift:1", backtrace: hostile),
                               reproduce: "chaos run x --seed 1 --variant legacy")])
        let folder = try TemporaryFolder()
        let html = try ReportSet.write(report, to: folder.url).html
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let browser = try #require(chromium, "Debian's chromium package is needed: make test installs it")
        let result = try Self.tool(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                             "--enable-logging=stderr", "--v=0", "--dump-dom", html.absoluteString])
        #expect(result.exitCode == 0, "\(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("<main"), "the page rendered: \(result.stdout.prefix(300))")
        #expect(result.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the name is shown as text")
        #expect(!result.stdout.contains("<script>alert(1)"), "no script element came from the report")
        let consoleErrors = result.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("Uncaught") }
        #expect(consoleErrors.isEmpty, "\(consoleErrors)")
    }
}
