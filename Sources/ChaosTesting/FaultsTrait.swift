@_exported import FaultPoints
import Testing

/// A test (or a suite's every test) with faults armed for it alone (``withFaults``):
///
/// ```swift
/// @Test(.faults(.throw(at: "store/notes/save", times: 1)))
/// func aFailedSaveIsReported() throws { … }
/// ```
public struct FaultsTrait: TestTrait, SuiteTrait, TestScoping {
    let faults: [ScopedFault]

    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withFaults(faults) { try await function() }
    }
}

extension Trait where Self == FaultsTrait {
    /// Arms `faults` for the test, in its task and the tasks it starts only.
    public static func faults(_ faults: ScopedFault...) -> Self {
        FaultsTrait(faults: faults)
    }
}
