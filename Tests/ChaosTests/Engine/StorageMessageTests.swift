import Chaos
import Foundation
import Testing

/// Seed 002, appendix C, through the real stack in a worker: a full disk and a read
/// error reach the view model as the seed's messages, never a trap.
@Suite struct StorageMessageTests {
    static func scenario(_ name: String, fault: String, action: String) -> String {
        """
        name: \(name)
        summary: the message the user sees
        system: favorites
        steps:
          - launch
          - do: favorites.add
            with: { count: 5 }
          \(fault)
          - do: \(action)
            expect-error: true
        expect:
          - no-trap
          - surfaced: error
          - state: { probe: favorites.error, equals: "\(name == "full" ? "Failed to save changes. Please try again." : "Unable to load favorites. Please try again.")" }
          - preserved: acknowledged
        """
    }

    @Test(arguments: [
        ("full", "- fault: disk-full", "favorites.add"),
        ("unreadable", "- fault: io-error\n    op: read", "favorites.list"),
    ])
    func theSeedsMessageReachesTheViewModel(name: String, fault: String, action: String) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("\(name).yaml", Self.scenario(name, fault: fault, action: action))
        let result = try ChaosExecutable.run(["run", file.path, "--report-dir", folder.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
    }
}
