import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct ReportJUnitTests {
    let xml = JUnitReportWriter.xml(ReportSample.report)

    func document() throws -> XMLDocument {
        try XMLDocument(data: Data(xml.utf8), options: [])
    }

    func attribute(_ name: String, of node: XMLNode) -> String? {
        (node as? XMLElement)?.attribute(forName: name)?.stringValue
    }

    @Test func parsesWithTheRightCounts() throws {
        let document = try document()
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        let suites = try document.nodes(forXPath: "/testsuites/testsuite")
        #expect(suites.count == 1)
        let suite = try #require(suites.first)
        #expect(attribute("name", of: suite) == "chaos")
        #expect(attribute("tests", of: suite) == "4")
        #expect(attribute("failures", of: suite) == "1")
        #expect(attribute("errors", of: suite) == "1")
        #expect(attribute("skipped", of: suite) == "1")
        #expect(attribute("time", of: suite) == "4.700")
        #expect(attribute("timestamp", of: suite) == "2025-06-01T09:30:00Z")
        #expect(try document.nodes(forXPath: "//testcase").count == 4)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
        #expect(try document.nodes(forXPath: "//testcase/error").count == 1)
        #expect(try document.nodes(forXPath: "//testcase/skipped").count == 1)
    }

    @Test func eachCaseIsATestcase() throws {
        let cases = try document().nodes(forXPath: "//testcase")
        #expect(cases.map { attribute("classname", of: $0) } == ["chaos.favorites", "chaos.vocabulary", "chaos.family", "chaos.settings"])
        #expect(cases.map { attribute("name", of: $0) } == ["corrupted-db", "quiz-too-few-words", "network-down", "disk-full-tmpfs"])
        #expect(cases.map { attribute("time", of: $0) } == ["0.920", "0.600", "3.000", "0.000"])
    }

    @Test func aDeviationListsFailedExpectationsAndTheReproduceCommand() throws {
        let failure = try #require(try document().nodes(forXPath: "//testcase[@name='quiz-too-few-words']/failure").first)
        #expect(attribute("type", of: failure) == "deviated")
        #expect(attribute("message", of: failure) == "2 of 3 expectations failed: no-trap, surfaced: warning")
        let text = try #require(failure.stringValue)
        #expect(text.contains("✗ no-trap\n    expected: no trap\n    observed: SIGILL at QuizGenerator.swift:42"))
        #expect(text.contains("✗ surfaced: warning\n    expected: warning\n    observed: none"))
        #expect(!text.contains("integrity"))
        #expect(text.contains("Reproduce: " + ReportSample.deviated.reproduce))
        #expect(text.contains(ReportSample.hostileMessage))
    }

    @Test func theTrapGoesToSystemErr() throws {
        let systemErr = try #require(try document().nodes(forXPath: "//testcase[@name='quiz-too-few-words']/system-err").first)
        let text = try #require(systemErr.stringValue)
        #expect(text.contains("signal: SIGILL (4)"))
        #expect(text.contains("site: QuizGenerator.swift:42"))
        #expect(text.contains("0 QuizGenerator.generate() at QuizGenerator.swift:42"))
        // ESC and NUL are not XML 1.0 characters: replaced, not dropped silently.
        #expect(text.contains("\u{FFFD}[31mcolour"))
        #expect(try document().nodes(forXPath: "//testcase[@name='corrupted-db']/system-err").isEmpty)
    }

    @Test func erroredAndSkippedCarryTheirReason() throws {
        let document = try document()
        let error = try #require(try document.nodes(forXPath: "//testcase[@name='network-down']/error").first)
        #expect(attribute("type", of: error) == "errored")
        #expect(attribute("message", of: error) == "worker did not answer `launch` within 3s")
        #expect(error.stringValue?.contains("stderr: <nothing>") == true)
        let skipped = try #require(try document.nodes(forXPath: "//testcase[@name='disk-full-tmpfs']/skipped").first)
        #expect(attribute("message", of: skipped) == "tmpfs mounts need root")
    }

    @Test func escapesEverythingIncludingAttributes() throws {
        #expect(!xml.contains("<script>"))
        #expect(!xml.contains("\u{1B}"))
        #expect(!xml.contains("\u{0}"))
        var hostile = ReportSample.deviated
        hostile.scenario = "a\"b<c>&'d\u{7}e\u{FFFE}"
        hostile.system = "sys\"tem"
        hostile.expectations[0].label = "line one\nline two\ttab"
        let report = RunReport(run: ReportSample.report.run, cases: [hostile])
        let document = try XMLDocument(data: Data(JUnitReportWriter.xml(report).utf8), options: [])
        let testcase = try #require(try document.nodes(forXPath: "//testcase").first)
        #expect(attribute("name", of: testcase) == "a\"b<c>&'d\u{FFFD}e\u{FFFD}")
        #expect(attribute("classname", of: testcase) == "chaos.sys\"tem")
        let failure = try #require(try document.nodes(forXPath: "//failure").first)
        // A newline in an attribute survives as &#10; instead of folding into a space.
        #expect(attribute("message", of: failure)?.contains("line one\nline two\ttab") == true)
    }

    @Test func interruptedIsAnError() throws {
        var interrupted = ReportSample.passed
        interrupted.verdict = .interrupted
        let document = try XMLDocument(
            data: Data(JUnitReportWriter.xml(RunReport(run: ReportSample.report.run, cases: [interrupted])).utf8), options: [])
        let error = try #require(try document.nodes(forXPath: "//testcase/error").first)
        #expect(attribute("type", of: error) == "interrupted")
        #expect(attribute("errors", of: try #require(try document.nodes(forXPath: "//testsuite").first)) == "1")
    }

    @Test func secondsWithoutALocale() {
        #expect(JUnitReportWriter.seconds(0) == "0.000")
        #expect(JUnitReportWriter.seconds(5) == "0.005")
        #expect(JUnitReportWriter.seconds(84) == "0.084")
        #expect(JUnitReportWriter.seconds(12_345) == "12.345")
    }
}
