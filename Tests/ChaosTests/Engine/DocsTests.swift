import Foundation
import Testing

/// What the documents show is what the repository holds: the ten minutes of
/// docs/TARGETS.md are the Notes example's target word for word, and every manifest
/// block is one SwiftPM reads. (That every other Swift block compiles as pasted is
/// ClientPackageTests', in a package of its own.)
@Suite struct DocsTests {
    @Test func theTenMinuteTargetIsTheNotesExampleWordForWord() throws {
        let example = try String(contentsOf: FirstHourPackage.repository.appendingPathComponent("Examples/Notes/Sources/NotesTarget/NotesTarget.swift"),
                                 encoding: .utf8)
        let files = try FirstHourPackage.docBlocks().filter { $0.document == "TARGETS" && $0.kind == .file }
        #expect(files.first?.text == example, "docs/TARGETS.md's first whole target file differs from Examples/Notes' NotesTarget.swift")
    }

    @Test func everyManifestBlockIsAPackageSwiftPMReads() throws {
        let manifests = try FirstHourPackage.docBlocks().filter { $0.kind == .manifest }
        #expect(!manifests.isEmpty)
        for block in manifests {
            let folder = try TemporaryFolder()
            try block.text.write(to: folder.url.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let dump = try ChaosExecutable.run(["swift", "package", "--package-path", folder.url.path, "dump-package"],
                                               executable: "/usr/bin/env", timeout: .seconds(120))
            #expect(dump.exitCode == 0, "\(block.document).md:\(block.line): \(dump.stderr)")
            #expect(dump.stdout.contains("\"ChaosTarget\""), "\(block.document).md:\(block.line) depends on ChaosTarget")
        }
    }

    @Test func aBlockIsAManifestAFileOrPartOfATarget() {
        let markdown = """
            text
            ```swift
            // swift-tools-version:6.1
            ```
            ```sh
            swift build
            ```
            ```swift
            import ChaosTarget
            @main final class T: ChaosTarget {}
            ```
            ```swift
            import VaporCSQLite

            static let sqlite: [SQLiteLibrary] = []
            ```
            """
        let blocks = DocBlock.all(in: markdown, document: "X")
        #expect(blocks.map(\.kind) == [.manifest, .file, .members])
        #expect(blocks.map(\.line) == [2, 8, 12])
        let source = blocks[2].source
        #expect(source.hasPrefix("import VaporCSQLite\n"), "its imports stay on top")
        #expect(source.contains("final class DocBlock12: ChaosTarget {\nstatic let sqlite"), "\(source)")
        #expect(source.contains("static let files") && source.contains("func launch()") && !source.contains("static let sqlite: [SQLiteLibrary] = []\n    static let sqlite"))
    }
}
