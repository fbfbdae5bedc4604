import Chaos
import Foundation
import Testing

/// A read-only fault's effect is what the app met, as the libc seam saw it: the calls
/// refused under its data folder after the fault (a replacement by rename or link is
/// refused as a write is, EROFS, root or not). Nothing attempted is no effect — it once
/// said "the app's writes were refused" of a file nobody tried to write, and of a file a
/// re-upload had replaced.
@Suite struct ReadOnlyMeasuredTests {
    static func run(_ yaml: String, example: String, variant: String) throws -> CaseReport {
        let folder = try TemporaryFolder()
        let file = try folder.write("read-only.yaml", yaml)
        _ = try ChaosExecutable.run(["run", file.path, "--target-exec", CheckTests.example(example), "--variant", variant,
                                     "--report-dir", folder.url.appendingPathComponent("r").path])
        return try #require(try JSONReportWriter.read(from: folder.url.appendingPathComponent("r/chaos-report.json")).cases.first)
    }

    static func scenario(write: String, read: String, then after: String) -> String {
        """
        name: read-only-measured
        summary: The store loses its write permission while the app is closed.
        system: storage
        steps:
          - launch
          - do: \(write)
            with: { count: 2 }
          - stop
          - fault: read-only
            file: store
          - launch
          - do: \(read)
        \(after)
        expect:
          - no-trap
        """
    }

    @Test func aReplacementByRenameIsRefusedAsAWriteIs() throws {
        let item = try Self.run(Self.scenario(write: "todos.add", read: "todos.list", then: "  - do: todos.add\n    expect-error: true"),
                                example: "todos", variant: "fixed")
        let effect = try #require(item.faults?.first { $0.kind == "read-only" }?.effect)
        #expect(effect.contains("the app was refused") && effect.contains("rename"), "\(effect)")
        #expect(item.verdict == .passed, "\(item.verdict): \(item.error ?? "")")
    }

    @Test func aReUploadIntoAReadOnlyFolderIsRefused() throws {
        let item = try Self.run(Self.scenario(write: "uploads.put", read: "uploads.list",
                                              then: "  - do: uploads.put\n    with: { name: file-001.bin }\n    expect-error: true"),
                                example: "uploads", variant: "fragile")
        let effect = try #require(item.faults?.first { $0.kind == "read-only" }?.effect)
        #expect(effect.contains("the app was refused"), "\(effect)")
        #expect(item.verdict == .passed, "\(item.verdict): \(item.error ?? "")")
    }

    @Test func nothingAttemptedIsNoEffectNeverRefused() throws {
        let item = try Self.run(Self.scenario(write: "uploads.put", read: "uploads.list", then: ""), example: "uploads", variant: "fragile")
        let effect = try #require(item.faults?.first { $0.kind == "read-only" }?.effect)
        #expect(effect.hasPrefix("no effect: nothing tried to write"), "\(effect)")
        #expect(item.verdict == .inconclusive)
    }
}
