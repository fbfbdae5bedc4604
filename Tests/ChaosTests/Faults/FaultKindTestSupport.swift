import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// Where a refused fault step's error must point, named as the step writes it.
enum StepSpot {
    /// The step itself: a required key missing, a check across keys.
    case step
    /// A key: one the kind does not take, a trigger key on a kind that acts once.
    case key(String)
    /// A key's value: out of range, of the wrong shape, unknown.
    case value(String)
}

extension ScenarioFixtures {
    /// The line of the first line of a ``faultStep(_:baseDirectory:)`` step in the
    /// scenario it is loaded in: after `name`, `summary`, `system`, `steps`, `- launch`
    /// and `- stop`.
    static let faultStepLine = 7

    /// Loads a fault step that must be refused, as ``faultStep(_:baseDirectory:)`` loads
    /// one, and checks that its error points where `spot` is written (file, line and
    /// column) and that its message says `text`: a user who wrote it is shown the place
    /// and the problem. Returns the error, for what a test checks besides.
    @discardableResult
    static func expectRefused(
        _ stepYAML: String, at spot: StepSpot, saying text: String, baseDirectory: URL? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> ScenarioError? {
        let error: ScenarioError
        do {
            let step = try faultStep(stepYAML, baseDirectory: baseDirectory)
            Issue.record("loaded as '\(step.label)'; expected an error saying '\(text)'", sourceLocation: sourceLocation)
            return nil
        } catch let refusal {
            error = refusal
        }
        let expected = position(of: spot, in: stepYAML)
        #expect(error.file == "fault.yaml", "\(error)", sourceLocation: sourceLocation)
        #expect(error.line == expected.line && error.column == expected.column,
                "\(error): expected at \(expected.line):\(expected.column)", sourceLocation: sourceLocation)
        #expect(error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
        return error
    }

    /// The 1-based line and column of `spot` in the scenario ``faultStep(_:baseDirectory:)``
    /// builds around `stepYAML` (whose lines it indents by two spaces); 0:0 when the
    /// step does not write the key.
    static func position(of spot: StepSpot, in stepYAML: String) -> (line: Int, column: Int) {
        let indent = 2
        let lines = stepYAML.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch spot {
        case .step:
            return (faultStepLine, indent + "- ".count + 1)
        case let .key(key), let .value(key):
            let written = key + ":"
            guard let index = lines.firstIndex(where: { line in line.drop { $0 == " " || $0 == "-" }.hasPrefix(written) }),
                  let range = lines[index].range(of: written) else { return (0, 0) }
            let line = lines[index]
            var column = line.distance(from: line.startIndex, to: range.lowerBound)
            if case .value = spot {
                column += written.count + line[range.upperBound...].prefix { $0 == " " }.count
            }
            return (faultStepLine + index, indent + column + 1)
        }
    }
}

/// What a storage kind's suite asks of its kind, without SQLite or a seam: a call as
/// the fault VFS reports it, whether the kind counts it (a hit), and what a firing does
/// to it. Each question starts from the kind's fresh memory.
protocol StorageKindChecks {}

extension StorageKindChecks {
    static func call(_ operation: StorageCall.Operation, _ file: StorageFile = .store, offset: Int64 = 0,
                     amount: Int32 = 0) -> StorageCall {
        StorageCall(operation: operation, file: file, path: "/data/app.sqlite", offset: offset, amount: amount)
    }

    func hits(_ fault: some StorageFault, on: StorageFile = .any, _ call: StorageCall) -> Bool {
        var memory = fault.initialMemory
        return fault.isHit(call, on: on, memory: &memory)
    }

    func effect(_ fault: some StorageFault, _ call: StorageCall, seed: UInt64 = 1) -> StorageEffect {
        var memory = fault.initialMemory
        var rng = SplitMix64(seed: seed)
        return fault.effect(of: call, memory: &memory, rng: &rng)
    }
}
