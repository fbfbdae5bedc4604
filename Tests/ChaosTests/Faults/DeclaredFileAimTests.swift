import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// A storage fault aimed at one declared file (`file: backup`): which paths are that
/// file's, how the key reads, and how a name the target does not declare is refused.
@Suite("Storage faults aimed at a declared file")
struct DeclaredFileAimTests {
    private let files = ["store": "todos.json", "backup": "todos.json.backup", "blobs": "uploads/"]

    @Test func aPathBelongsToTheLongestDeclaredPathItNamesOrExtends() throws {
        let store = try #require(DeclaredFileOwnership(file: "store", among: files))
        let backup = try #require(DeclaredFileOwnership(file: "backup", among: files))
        let blobs = try #require(DeclaredFileOwnership(file: "blobs", among: files))
        #expect(store.owns("todos.json"))
        #expect(store.owns("todos.json.tmp"))
        #expect(!store.owns("todos.json.backup"))
        #expect(backup.owns("todos.json.backup"))
        #expect(backup.owns("todos.json.backup.tmp"))
        #expect(!backup.owns("todos.json"))
        #expect(blobs.owns("uploads/3.bin"))
        #expect(!store.owns("todos.jsonx"))
        #expect(!store.owns("other.json"))
        #expect(DeclaredFileOwnership(file: "bakup", among: files) == nil)
        #expect(!DeclaredFileOwnership.nothing.owns("todos.json"))
    }

    @Test func theKeyIsReadAndShownInTheLabel() throws {
        let step = try ScenarioFixtures.faultStep("- fault: io-error\n  op: write\n  file: backup\n  times: 1")
        #expect(step.trigger.file == "backup")
        #expect(step.trigger.label == "once, file backup")
    }

    @Test func aNameTheTargetDoesNotDeclareIsRefusedWithTheNamesItDoes() throws {
        let declaration = TargetDeclaration(files: files, actions: [], probes: [])
        let problem = try #require(ScenarioTargetCheck.check(declaredFile: "bakup", at: SourceLocation(file: "s.yaml", line: 4, column: 5),
                                                             target: declaration))
        #expect(problem.message.contains("no file named 'bakup'"))
        #expect(problem.message.contains("backup"))
        #expect(ScenarioTargetCheck.check(declaredFile: "backup", at: SourceLocation(file: "s.yaml", line: 4, column: 5), target: declaration) == nil)
    }
}
