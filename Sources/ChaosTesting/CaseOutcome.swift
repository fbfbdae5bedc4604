internal import Chaos
internal import ChaosTarget
import Foundation
import Testing

/// How one case went: its verdict, each failed expectation at its YAML line, the
/// trap, the reproduce command, and where its reports are.
public struct CaseOutcome: Sendable, CustomStringConvertible {
    /// One failed expectation (or the trap), where the scenario says it.
    public struct Failure: Sendable {
        public let message: String
        public let location: Testing.SourceLocation
    }

    public let scenario: String
    /// `passed`, `deviated`, `inconclusive`, `errored`, `skipped` or `interrupted`.
    public let verdict: String
    public let failures: [Failure]
    /// `File.swift:LINE` of the trap, and its `Fatal error` message, if it trapped.
    public let trapSite: String?
    public let trapMessage: String?
    /// Why a case was inconclusive, errored or skipped.
    public let reason: String?
    /// The command line that reproduces the case.
    public let reproduce: String
    /// The case's JSON, HTML and JUnit reports (kept when it did not pass).
    public let reportDirectory: URL?

    public var passed: Bool { verdict == "passed" }

    /// One paragraph for a person (an XCTest failure message).
    public var description: String {
        var lines = ["\(scenario): \(verdict)"] + failures.map { "  \($0.message)" }
        if let reason { lines.append("  \(reason)") }
        lines.append("  reproduce: \(reproduce)")
        if let reportDirectory { lines.append("  reports: \(reportDirectory.path)") }
        return lines.joined(separator: "\n")
    }

    init(report: CaseReport, scenario: Scenario?, options: RunOptions) throws {
        self.scenario = report.scenario
        verdict = report.verdict.rawValue
        trapSite = report.trap?.site
        trapMessage = report.trap?.message
        reason = report.error
        reproduce = report.reproduce
        failures = Self.failures(of: report, scenario: scenario)
        reportDirectory = try Self.writeReports(report, options: options)
    }

    /// Each failed expectation, at its line; a trap's evidence with the no-trap one.
    static func failures(of report: CaseReport, scenario: Scenario?) -> [Failure] {
        let start = scenario?.location ?? ScenarioLocation(file: report.scenarioFile, line: 1, column: 1)
        let trappedStep = report.steps.firstIndex { $0.outcome == .trapped }
        // One issue for the app's end, which names the expectations it kept from being judged.
        let unreached = report.expectations.filter(\.wasNotReached)
        return report.expectations.filter { !$0.passed && !$0.wasNotReached }.map { result in
            var text = "✘ \(result.label): expected \(result.expected), saw \(result.observed)"
            if let detail = result.detail { text += "\n  \(detail)" }
            if result.kind == "no-trap", let why = unreached.first?.detail {
                text += "\n  \(why): " + unreached.map(\.label).joined(separator: ", ")
            }
            text += "\n  reproduce: \(report.reproduce)"
            let written = scenario?.expectations.first { $0.kind.label == result.label }?.location
            let atStep = result.kind == "no-trap" ? trappedStep.flatMap { scenario?.steps.indices.contains($0) == true ? scenario?.steps[$0].location : nil } : nil
            return Failure(message: text, location: (atStep ?? written ?? start).testLocation)
        }
    }

    /// Records the failures as issues (and an inconclusive or errored case as one
    /// issue with its reason), with the reports attached.
    func record(allowInconclusive: Bool, sourceLocation: Testing.SourceLocation) {
        if let reportDirectory {
            for name in [ReportSet.jsonFileName, ReportSet.htmlFileName] {
                if let text = try? String(contentsOf: reportDirectory.appendingPathComponent(name), encoding: .utf8) {
                    Attachment.record(text, named: "\(scenario)-\(name)", sourceLocation: sourceLocation)
                }
            }
        }
        let kept = reportDirectory.map { "\n  reports: \($0.path)" } ?? ""
        for failure in failures { Issue.record(Comment(rawValue: failure.message + kept), sourceLocation: failure.location) }
        switch verdict {
        case "inconclusive" where !allowInconclusive, "errored", "interrupted":
            Issue.record(Comment(rawValue: "\(scenario): \(verdict): \(reason ?? "")\n  reproduce: \(reproduce)\(kept)"),
                         sourceLocation: sourceLocation)
        default:
            break
        }
    }

    /// Writes the case's reports; removes them again when it passed.
    static func writeReports(_ report: CaseReport, options: RunOptions) throws -> URL? {
        let folder = reportsRoot.appendingPathComponent("\(report.scenario)-\(UUID().uuidString.prefix(8))")
        var run = RunReport(run: RunInfo.now(options: options), cases: [report])
        run.run.command = report.reproduce
        try ReportSet.write(run, to: folder)
        guard report.verdict == .passed else { return folder }
        try? FileManager.default.removeItem(at: folder)
        return nil
    }

    /// `.build/chaos-reports` of the package under test, else the temporary folder.
    static var reportsRoot: URL {
        let products = TargetUnderTest.productsDirectory.path
        guard let range = products.range(of: "/.build/") else {
            return FileManager.default.temporaryDirectory.appendingPathComponent("chaos-reports")
        }
        return URL(fileURLWithPath: String(products[..<range.upperBound])).appendingPathComponent("chaos-reports")
    }
}

extension ScenarioLocation {
    /// Where Swift Testing places an issue about this place in a scenario file.
    var testLocation: Testing.SourceLocation {
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
        return Testing.SourceLocation(fileID: "\(folder.isEmpty ? "scenarios" : folder)/\(URL(fileURLWithPath: path).lastPathComponent)",
                                      filePath: path, line: max(1, line), column: max(1, column))
    }
}

extension ScenarioError {
    /// Where Swift Testing places an issue about this error.
    var testLocation: Testing.SourceLocation {
        ScenarioLocation(file: file, line: line, column: column).testLocation
    }
}
