internal import Chaos
internal import ChaosTarget
import Foundation
import Testing

// Chaos in `swift test`: a scenario, or the whole storage catalog, run against your
// target executable from a test, each failed expectation an issue at its YAML line.
//
// ```swift
// import ChaosTesting
// import Testing
//
// @Test func notebookSurvivesADamagedStore() async throws {
//     try await expectSurvives("scenarios/notes-corrupted.yaml", target: .product("notes-chaos-target"))
// }
//
// @Test(arguments: scenarioFiles(in: "scenarios"))
// func everyScenario(_ scenario: ScenarioFile) async throws {
//     try await expectSurvives(scenario, target: .product("notes-chaos-target"), variant: "fixed")
// }
// ```
//
// Free functions, not members of a namespace: a type named `Chaos` would shadow the
// module `Chaos`, and the calls read as `#expect` does. The controller runs in the test
// process; the app runs in child processes, so a trap never ends the test run. Tests in
// parallel share no scratch folder, port or fault state. A scenario's path is found
// beside the calling test file first, then in the working directory; a scenario the
// target ships (`ChaosTarget.scenarioFolder`) is named by its name.

/// Runs `scenario` against `target` and records an issue for each failed expectation,
/// located at the expectation's line in the YAML (a trap: at the step that trapped), with
/// the evidence, the trap's `File.swift:LINE` and message, and the command that
/// reproduces it. The case's reports are attached, and kept on failure (their folder is
/// in each issue). Returns the outcome.
@discardableResult
public func expectSurvives(
    _ scenario: String, target: TargetUnderTest, variant: String? = nil, seed: UInt64? = nil, options: [String: String] = [:],
    allowInconclusive: Bool = false, filePath: String = #filePath, sourceLocation: Testing.SourceLocation = #_sourceLocation
) async throws -> CaseOutcome {
    let outcome = try await runScenario(scenario, target: target, variant: variant, seed: seed, options: options,
                                        filePath: filePath, sourceLocation: sourceLocation)
    outcome.record(allowInconclusive: allowInconclusive, sourceLocation: sourceLocation)
    return outcome
}

/// ``expectSurvives(_:target:variant:seed:options:allowInconclusive:filePath:sourceLocation:)``
/// for a scenario of ``scenarioFiles(in:filePath:)``.
@discardableResult
public func expectSurvives(
    _ scenario: ScenarioFile, target: TargetUnderTest, variant: String? = nil, seed: UInt64? = nil, options: [String: String] = [:],
    allowInconclusive: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation
) async throws -> CaseOutcome {
    try await expectSurvives(scenario.path, target: target, variant: variant, seed: seed, options: options,
                             allowInconclusive: allowInconclusive, filePath: scenario.path, sourceLocation: sourceLocation)
}

/// Runs `scenario` against `target` and returns how it went, recording nothing: the
/// entry for XCTest (`XCTAssertTrue(outcome.passed, outcome.description)`) and for tests
/// that judge the outcome themselves.
public func runScenario(
    _ scenario: String, target: TargetUnderTest, variant: String? = nil, seed: UInt64? = nil, options: [String: String] = [:],
    filePath: String = #filePath, sourceLocation: Testing.SourceLocation = #_sourceLocation
) async throws -> CaseOutcome {
    let selection = try target.select(variant: variant)
    let loaded = try ScenarioFile.load(scenario, besides: filePath, catalog: selection.catalog)
    let problems = selection.problems([loaded])
    guard problems.isEmpty else {
        for problem in problems { Issue.record(Comment(rawValue: problem.description), sourceLocation: problem.testLocation) }
        throw ChaosTestingError("\(scenario) does not fit \(selection.name): \(problems.count) problem(s)")
    }
    var runOptions = RunOptions(target: selection, seed: seed, keepScratch: false)
    runOptions.optionOverrides = options
    let caseOptions = runOptions
    let report = try await onItsOwnThread { CaseRunner(scenario: loaded, options: caseOptions).run() }
    return try CaseOutcome(report: report, scenario: loaded, options: caseOptions)
}

/// The storage catalog (`chaos check`) against `target`: an issue for each case that
/// does not pass, with its evidence and the line that reproduces it.
@discardableResult
public func expectPassesCheck(
    target: TargetUnderTest, variant: String? = nil, only: [String] = [], allowInconclusive: Bool = false,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) async throws -> [CaseOutcome] {
    let selection = try target.select(variant: variant)
    guard selection.declaration.workload != nil else {
        throw ChaosTestingError("\(selection.name) declares no workload: add `static let workload` to its ChaosTarget")
    }
    let runOptions = RunOptions(target: selection, seed: nil, keepScratch: false)
    let scenarios = try CheckCatalog.scenarios(for: selection.declaration).filter { CheckCatalog.applies($0, to: selection.declaration) }
    var check = StorageCheck(catalog: scenarios, options: runOptions, command: "ChaosTesting")
    check.only = Set(only)
    check.jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let catalog = check
    let report = try await onItsOwnThread { catalog.run { _ in } }
    let outcomes = try report.cases.map { item in
        try CaseOutcome(report: item, scenario: scenarios.first { $0.name == item.scenario }, options: runOptions)
    }
    for outcome in outcomes { outcome.record(allowInconclusive: allowInconclusive, sourceLocation: sourceLocation) }
    return outcomes
}

/// The scenario files (`.yaml`) of a folder, by name, for a parameterised test: the
/// folder is found beside the calling test file first, then in the working directory.
public func scenarioFiles(in folder: String, filePath: String = #filePath) -> [ScenarioFile] {
    let directory = ScenarioFile.locate(folder, besides: filePath)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        .map { ScenarioFile(path: directory + "/" + $0) }
}

/// Runs blocking work (the case's child processes, its waits) on a thread of its own,
/// not on the test's cooperative pool.
func onItsOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    let result: Result<Value, any Error> = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: Result { try work() }) }.start()
    }
    return try result.get()
}

/// What went wrong around a case, rather than in it: a target not found, a scenario
/// that does not load or fit.
public struct ChaosTestingError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
