import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite("Scenario loader: valid files")
struct ScenarioLoaderTests {
    @Test func designExampleLoadsToTheExpectedModel() throws {
        let scenario = try ScenarioLoader.load(yaml: ScenarioFixtures.designExample, file: "corrupted-db.yaml", baseDirectory: nil)
        func at(_ line: Int, _ column: Int) -> Chaos.SourceLocation { Chaos.SourceLocation(file: "corrupted-db.yaml", line: line, column: column) }

        #expect(scenario.name == "corrupted-db")
        #expect(scenario.summary == "The favourites store is overwritten with garbage while the app is closed.")
        #expect(scenario.system == "favorites")
        #expect(scenario.seed == 1)
        #expect(scenario.timeout == .seconds(30))
        #expect(scenario.options.isEmpty)
        #expect(scenario.location == at(1, 1))
        #expect(scenario.sourceText == ScenarioFixtures.designExample)

        let expectedSteps: [ScenarioStep] = [
            ScenarioStep(action: .launch, location: at(7, 5)),
            ScenarioStep(action: .perform(ActionStep(name: "favorites.add", arguments: ["count": .int(25)])), location: at(8, 5)),
            ScenarioStep(action: .checkpoint("before-fault"), location: at(10, 5)),
            ScenarioStep(action: .stop, location: at(11, 5)),
            ScenarioStep(
                action: .fault(FaultStep(fault: AnyFault(CorruptFileFault(file: "store", how: .garbageHeader)), trigger: Trigger())),
                location: at(12, 5)
            ),
            ScenarioStep(action: .launch, location: at(15, 5)),
            ScenarioStep(action: .perform(ActionStep(name: "favorites.list")), location: at(16, 5)),
        ]
        // What each step does, where and how it is shown (its written form: ScenarioWriterTests).
        #expect(scenario.steps.map { var step = $0; step.written = nil; return step } == expectedSteps)
        #expect(scenario.steps.map(\.label) == [
            "launch", "do favorites.add {count: 25}", "checkpoint before-fault", "stop",
            "fault corrupt-file store (garbage-header)", "launch", "do favorites.list",
        ])

        let expectedExpectations: [ScenarioExpectation] = [
            ScenarioExpectation(kind: .noTrap, location: at(18, 5)),
            ScenarioExpectation(kind: .fallback("restored-from-backup"), location: at(19, 5)),
            ScenarioExpectation(kind: .recoveredWithin(.seconds(5)), location: at(20, 5)),
            ScenarioExpectation(kind: .preserved("before-fault"), location: at(21, 5)),
            ScenarioExpectation(kind: .surfaced(.warning), location: at(22, 5)),
        ]
        #expect(scenario.expectations == expectedExpectations)
        #expect(scenario.expectations.map(\.label) == [
            "no-trap", "fallback: restored-from-backup", "recovered-within: 5s", "preserved: before-fault", "surfaced: warning",
        ])
        #expect(scenario.expectations.map(\.wireName) == ["no-trap", "fallback", "recovered-within", "preserved", "surfaced"])
        #expect(scenario.checkedExpectations == scenario.expectations)
        #expect(scenario.checkpoints == ["before-fault"])
    }

    @Test func defaultsApplyAndNoTrapIsAlwaysChecked() throws {
        let scenario = try ScenarioLoader.load(yaml: ScenarioFixtures.scenario(steps: "  - launch"), file: "t.yaml", baseDirectory: nil)
        #expect(scenario.seed == Scenario.defaultSeed)
        #expect(scenario.timeout == .seconds(30))
        #expect(scenario.expectations.isEmpty)
        #expect(scenario.checkedExpectations.map(\.kind) == [.noTrap])
    }

    @Test func everyStepAndExpectationShape() throws {
        let yaml = """
            name: all-shapes
            summary: every step and expectation
            system: settings
            seed: 6745
            timeout: 2m
            options:
              synchronous: full
              pool-size: 4
            steps:
              - launch
              - do: settings.set
                with: {key: theme, value: "dark", flags: [1, 2.5, true, null]}
                repeat: 3
                expect-error: false
              - checkpoint: saved
              - fault: throw
                point: store/settings/*
                message: disk I/O error
                after: 2
                times: always
                probability: 12.5%
              - do: settings.get
                expect-error: true
              - wait: 1.5s
              - clear: throw
              - clear: all
              - kill
              - launch
              - do: settings.get
              - stop
            expect:
              - no-trap
              - integrity: ok
              - fallback: circuit-open
              - recovered-within: 250ms
              - preserved: saved
              - preserved: acknowledged
              - surfaced: none
              - state: {probe: settings.count, equals: 25}
              - state:
                  probe: settings.theme
                  equals: dark
            """
        let scenario = try ScenarioLoader.load(yaml: yaml, file: "all.yaml", baseDirectory: nil)
        #expect(scenario.seed == 6745)
        #expect(scenario.timeout == .seconds(120))
        #expect(scenario.options == ["synchronous": "full", "pool-size": "4"])
        #expect(scenario.steps.map(\.action) == [
            .launch,
            .perform(ActionStep(
                name: "settings.set",
                arguments: ["key": .string("theme"), "value": .string("dark"), "flags": .list([.int(1), .double(2.5), .bool(true), .null])],
                repeatCount: 3, expectError: false
            )),
            .checkpoint("saved"),
            .fault(FaultStep(
                fault: AnyFault(ThrowFault(point: "store/settings/*", message: "disk I/O error")),
                trigger: Trigger(after: 2, times: nil, probability: 0.125)
            )),
            .perform(ActionStep(name: "settings.get", expectError: true)),
            .wait(.milliseconds(1500)),
            .clear(.kind("throw")),
            .clear(.all),
            .kill,
            .launch,
            .perform(ActionStep(name: "settings.get")),
            .stop,
        ])
        #expect(scenario.steps[1].label == "do settings.set {flags: [1, 2.5, true, null], key: theme, value: dark} ×3 (expect success)")
        #expect(scenario.steps[3].label == "fault throw store/settings/* (\"disk I/O error\") after 2, 12.5%")
        #expect(scenario.steps[5].label == "wait 1.5s")
        #expect(scenario.steps[7].label == "clear all")
        #expect(scenario.expectations.map(\.kind) == [
            .noTrap, .integrity, .fallback("circuit-open"), .recoveredWithin(.milliseconds(250)),
            .preserved("saved"), .preserved("acknowledged"), .surfaced(SurfaceLevel.none),
            .state(probe: "settings.count", equals: .int(25)), .state(probe: "settings.theme", equals: .string("dark")),
        ])
        #expect(scenario.expectations[7].label == "state: settings.count = 25")
    }

    @Test func loadsFromAFileAndResolvesByPath() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("corrupted-db.yaml")
        try ScenarioFixtures.designExample.write(to: url, atomically: true, encoding: .utf8)
        let loaded = try ScenarioLoader.load(contentsOf: url)
        #expect(loaded.name == "corrupted-db")
        #expect(loaded.location.file == url.path)
        let resolved = try ScenarioLoader.resolve(url.path, in: nil)
        #expect(resolved == loaded)
    }

    @Test func replaceFilePathsResolveAgainstTheScenarioFolder() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dbs"), withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: directory.appendingPathComponent("dbs/broken.db"))
        let yaml = ScenarioFixtures.scenario(steps: "  - fault: replace-file\n    with: dbs/broken.db")
        let url = directory.appendingPathComponent("replace.yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        let scenario = try ScenarioLoader.load(contentsOf: url)
        guard case let .fault(step)? = scenario.steps.first?.action, let fault = step.fault.as(ReplaceFileFault.self) else {
            Issue.record("not a replace-file step")
            return
        }
        #expect(fault.path == "dbs/broken.db")
        #expect(fault.replacement == directory.appendingPathComponent("dbs/broken.db").standardizedFileURL)
        #expect(fault.resolvedPath(relativeTo: URL(fileURLWithPath: "/elsewhere")).path == "/elsewhere/dbs/broken.db")
    }

    @Test func aCatalogsScenariosLoadAndAreSortedByName() throws {
        let scenarios = try ScenarioCatalog.reference.scenarios()
        #expect(scenarios.map(\.name) == scenarios.map(\.name).sorted())
        #expect(scenarios.map(\.name) == ScenarioCatalog.reference.names)
        #expect(scenarios.allSatisfy { $0.origin == .catalog })
        for scenario in scenarios {
            #expect(ScenarioParser.isKebabName(scenario.name))
        }
    }

    @Test func anUnknownNameIsAnErrorWithTheClosestOne() {
        do {
            _ = try ScenarioLoader.resolve("corrupted-dbb", in: .reference)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 0)
            #expect(error.message.contains("no scenario named 'corrupted-dbb'"), "\(error.message)")
            #expect(error.suggestion == "corrupted-db")
        }
    }

    @Test func aNameOnATargetThatShipsNoScenariosSaysToGiveAPath() {
        do {
            _ = try ScenarioLoader.resolve("corrupted-db", in: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("the target ships no scenarios of its own, and the storage catalog has none of that name"),
                    "\(error.message)")
            #expect(error.message.contains("give a path to a .yaml file"), "\(error.message)")
        }
    }

    @Test func aUTF8ByteOrderMarkIsIgnored() throws {
        let scenario = try ScenarioLoader.load(yaml: "\u{FEFF}" + ScenarioFixtures.designExample, file: "bom.yaml", baseDirectory: nil)
        #expect(scenario.location == Chaos.SourceLocation(file: "bom.yaml", line: 1, column: 1))
    }
}
