import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite("Scenario values, durations and percentages")
struct ScenarioValueTests {
    @Test func durationsParse() {
        #expect(ScenarioDuration.parse("250ms") == .milliseconds(250))
        #expect(ScenarioDuration.parse("5s") == .seconds(5))
        #expect(ScenarioDuration.parse("1.5s") == .milliseconds(1500))
        #expect(ScenarioDuration.parse("2m") == .seconds(120))
        #expect(ScenarioDuration.parse("1h") == .seconds(3600))
        #expect(ScenarioDuration.parse("0.25ms") == .microseconds(250))
        #expect(ScenarioDuration.parse("0s") == .zero)
        #expect(ScenarioDuration.parse("-1h", allowingSign: true) == .seconds(-3600))
        #expect(ScenarioDuration.parse("+30m", allowingSign: true) == .seconds(1800))
    }

    @Test func badDurationsDoNotParse() {
        for text in ["", "5", "s", "5 sec", "5S", "-1h", "+1s", "1.s", ".5s", "1..5s", "5d", "1e3s", "0x10s", "99999999999999h", "1001h", "5ms5"] {
            #expect(ScenarioDuration.parse(text) == nil, "\(text)")
        }
        #expect(ScenarioDuration.parse("--1h", allowingSign: true) == nil)
    }

    @Test func durationsFormat() {
        #expect(ScenarioDuration.format(.milliseconds(250)) == "250ms")
        #expect(ScenarioDuration.format(.seconds(5)) == "5s")
        #expect(ScenarioDuration.format(.milliseconds(1500)) == "1.5s")
        #expect(ScenarioDuration.format(.seconds(120)) == "2m")
        #expect(ScenarioDuration.format(.seconds(3600)) == "1h")
        #expect(ScenarioDuration.format(.seconds(-3600)) == "-1h")
        #expect(ScenarioDuration.format(.zero) == "0s")
        for text in ["250ms", "5s", "1.5s", "2m", "1h", "0.25ms", "90s"] {
            if let duration = ScenarioDuration.parse(text) {
                #expect(ScenarioDuration.parse(ScenarioDuration.format(duration)) == duration)
            }
        }
    }

    @Test func percentagesParse() {
        #expect(ScenarioPercent.parse("5%") == 0.05)
        #expect(ScenarioPercent.parse("0.5%") == 0.005)
        #expect(ScenarioPercent.parse("100%") == 1)
        #expect(ScenarioPercent.parse("0%") == 0)
        for text in ["5", "%", "101%", "-5%", "5 %%", "abc%", "1e2%", ".5%", "nan%"] {
            #expect(ScenarioPercent.parse(text) == nil, "\(text)")
        }
        #expect(ScenarioPercent.format(0.05) == "5%")
        #expect(ScenarioPercent.format(0.005) == "0.5%")
    }

    @Test func plainScalarsBecomeTypedValues() {
        #expect(ScenarioValue(plainScalar: "25") == .int(25))
        #expect(ScenarioValue(plainScalar: "-3") == .int(-3))
        #expect(ScenarioValue(plainScalar: "2.5") == .double(2.5))
        #expect(ScenarioValue(plainScalar: "1e3") == .double(1000))
        #expect(ScenarioValue(plainScalar: "true") == .bool(true))
        #expect(ScenarioValue(plainScalar: "yes") == .string("yes"))
        #expect(ScenarioValue(plainScalar: "~") == .null)
        #expect(ScenarioValue(plainScalar: "") == .null)
        #expect(ScenarioValue(plainScalar: "99999999999999999999") == .double(1e20))
        #expect(ScenarioValue(plainScalar: "nan") == .string("nan"))
        #expect(ScenarioValue(plainScalar: "1:30") == .string("1:30"))
    }

    @Test func valuesAreCodableAsPlainJSON() throws {
        let value = ScenarioValue.map([
            "count": .int(25), "ratio": .double(0.5), "name": .string("a"), "ok": .bool(false),
            "tags": .list([.string("x"), .null]),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(json == #"{"count":25,"name":"a","ok":false,"ratio":0.5,"tags":["x",null]}"#)
        #expect(try JSONDecoder().decode(ScenarioValue.self, from: Data(json.utf8)) == value)
    }

    @Test func closestNames() {
        #expect(ClosestName.suggestion(for: "corupt-file", among: FaultCatalog.kinds) == "corrupt-file")
        #expect(ClosestName.suggestion(for: "fualt", among: StepKeyword.allCases.map(\.rawValue)) == "fault")
        #expect(ClosestName.suggestion(for: "Launch", among: StepKeyword.allCases.map(\.rawValue)) == "launch")
        #expect(ClosestName.suggestion(for: "xyz", among: StepKeyword.allCases.map(\.rawValue)) == nil)
        #expect(ClosestName.suggestion(for: "", among: ["a"]) == nil)
    }
}
