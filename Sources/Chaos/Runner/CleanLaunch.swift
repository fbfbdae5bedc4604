import Foundation
import ChaosTarget

/// What a clean first launch of the target makes by itself: the keys of the records a
/// launch on an empty data folder leaves, with no action and no fault. And when the
/// case puts files of its own in place (`replace-file`: a store the app's first version
/// left), what a clean launch on those files shows: the records they bring are no
/// action's either, and a case that ends with them has lost nothing and made nothing up.
/// Learned at most once per variant, options, seed, system and replaced files in a
/// command (every case and sweep trial of the command shares this through its
/// ``TargetSelection``), and only when a case has records no action explains: most
/// cases never ask.
package final class CleanLaunch: @unchecked Sendable {
    fileprivate struct Key: Hashable {
        var variant: String
        var options: [String: String]
        var seed: UInt64
        var system: String
        var placed: [String]
    }

    /// Held while learning: two cases that need the same answer wait for one launch.
    private let lock = NSLock()
    private var learned: [Key: OwnRecords] = [:]

    package init() {}

    /// Which clean launch a case would ask about: made before the case starts, from the
    /// run's options and the case's scenario and seed, never from the running case.
    struct Question {
        var options: RunOptions
        var scenario: Scenario
        var seed: UInt64

        fileprivate var key: Key {
            Key(variant: options.variant, options: scenario.targetOptions(overriddenBy: options.optionOverrides), seed: seed,
                system: scenario.system, placed: placing.compactMap { step in
                    guard case let .fault(fault) = step.action, let replace = fault.fault.as(ReplaceFileFault.self) else { return nil }
                    return replace.file + "=" + replace.replacement.path
                })
        }

        /// The scenario's `replace-file` steps: the files it puts in place of the app's.
        var placing: [ScenarioStep] {
            scenario.steps.filter { step in
                if case let .fault(fault) = step.action { return fault.fault.kind == ReplaceFileFault.kind }
                return false
            }
        }
    }

    /// The records a clean launch makes, as `question` asks (none when the launch or its
    /// snapshot failed: then nothing is excused).
    func records(for question: Question) -> OwnRecords {
        let key = question.key
        lock.lock()
        defer { lock.unlock() }
        if let known = learned[key] { return known }
        let keys = Self.learn(question)
        learned[key] = keys
        return keys
    }

    /// One case of its own, beside the case that asks: launch on an empty folder, the
    /// snapshot of the running app (it wrote nothing Chaos asked for and ran with no
    /// fault, so it holds what the disk holds), stop. With files to put in place, a second
    /// case: launch, stop, the scenario's `replace-file` steps, launch, snapshot; the two
    /// together are what no action of the case explains.
    private static func learn(_ question: Question) -> OwnRecords {
        let location = SourceLocation(file: "a clean launch", line: 1, column: 1)
        let launch = ScenarioStep(action: .launch, location: location, label: "launch")
        var records = learn([launch], question, location: location)
        let placing = question.placing
        guard !placing.isEmpty else { return records }
        let onPlaced = learn([launch, ScenarioStep(action: .stop, location: location, label: "stop")] + placing + [launch], question,
                             location: location)
        records.learned.formUnion(onPlaced.learned)
        records.learnedRows.merge(onPlaced.learnedRows) { $0.union($1) }
        return records
    }

    private static func learn(_ steps: [ScenarioStep], _ question: Question, location: SourceLocation) -> OwnRecords {
        let scenario = Scenario(
            name: "clean-launch", summary: "What a clean first launch makes by itself.", system: question.scenario.system,
            seed: question.seed, options: question.scenario.options,
            steps: steps,
            expectations: [ScenarioExpectation(kind: .preserved(Expectation.acknowledged), location: location)],
            location: location, sourceText: "")
        var options = question.options
        options.keepScratch = false
        options.seed = question.seed
        options.target.cleanLaunch = nil
        let learner = CaseRunner(scenario: scenario, options: options)
        _ = learner.run()
        return learner.log.evidence.finalSnapshot.map(OwnRecords.init(cleanLaunch:)) ?? OwnRecords()
    }
}
