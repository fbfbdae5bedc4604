import Foundation
import Testing
@testable import Chaos
import ChaosTarget

/// The worker protocol's version: a ready line names it, one without it speaks protocol 1,
/// and every worker ChaosTarget makes speaks this Chaos's. (A target that speaks another
/// is refused: `MisbehavingTargetTests`.)
@Suite struct WorkerProtocolVersionTests {
    static let refusal = "the target speaks worker protocol 1; this chaos speaks \(WorkerProtocolVersion.current): "
        + "rebuild the target against this Chaos (docs/TARGETS.md §5)"

    @Test func aReadyLineWithoutAVersionSpeaksProtocolOneAndIsRefusedNamingBoth() throws {
        let ready = try #require(WorkerReady.read(#"{"event":"ready","pid":7}"#))
        #expect(ready.protocol == WorkerProtocolVersion.unversioned)
        #expect(WorkerProtocolVersion.mismatch(ready.protocol) == Self.refusal)
        #expect(WorkerProtocolVersion.mismatch(WorkerProtocolVersion.current) == nil)
    }

    @Test func theReadyLineNamesTheCurrentVersion() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let line = String(decoding: try encoder.encode(WorkerReady(pid: 7, libcSeamMissing: nil)), as: UTF8.self)
        #expect(line == #"{"event":"ready","pid":7,"protocol":\#(WorkerProtocolVersion.current)}"#)
        #expect(WorkerReady.read(line)?.protocol == WorkerProtocolVersion.current)
    }

    /// The built-in app's worker (`chaos worker`) and an example's target executable: the
    /// ready line each writes, as the controller reads it.
    @Test(arguments: [nil, "chaos-example-notes"])
    func theShippedWorkersSpeakTheCurrentVersion(example: String?) throws {
        let folder = try TemporaryFolder()
        let command = example.map {
            WorkerCommand(executable: ChaosExecutable.built($0), arguments: [], environment: WorkerCommand.workerEnvironment())
        } ?? WorkerCommand.reference
        let context = TargetContext(dataDirectory: folder.url.appendingPathComponent("data"), variant: example == nil ? "hardened" : "fixed")
        try FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        let start = try WorkerSession.start(command: command, context: context, stderrFile: folder.url.appendingPathComponent("stderr"),
                                            deadline: .now + .seconds(30))
        guard case let .ready(link) = start else {
            Issue.record("the worker did not start: \(start)")
            return
        }
        defer { link.kill() }
        #expect(link.ready.protocol == WorkerProtocolVersion.current)
    }
}
