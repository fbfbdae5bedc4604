@testable import Chaos
import Foundation
import Testing

/// A trap's raw frames named by the controller, once per frame: the backtrace a report
/// shows is whole and demangled, the site read from it as before, and a trap seen before
/// runs no tool at all.
@Suite struct TrapSymbolizerTests {
    @Test func rawFramesAndImagesAreRead() {
        let frame = TrapSymbolizer.rawFrame(" 2 [ra]    0x00005640b335cd77")
        #expect(frame?.address == 0x5640_b335_cd77 && frame?.isReturnAddress == true && frame?.index == "2")
        #expect(TrapSymbolizer.rawFrame("13 [async] 0x00007fdeb885e310")?.isReturnAddress == false)
        #expect(TrapSymbolizer.rawFrame("14         ...") == nil)
        #expect(TrapSymbolizer.rawFrame("2 [ra] 0x000055bb117535bc LegacyFamilyCreation.join(code:) + 235 in chaos") == nil, "already named")
        let image = TrapSymbolizer.image("0x00005640b31fd000–0x00005640b33bed20 3c33be15e8729fe2e878bbcfedeeb6af397f62d1 chaos-test-tags         /work/x/chaos-test-tags")
        #expect(image == TrapSymbolizer.Image(start: 0x5640_b31f_d000, end: 0x5640_b33b_ed20, buildID: "3c33be15e8729fe2e878bbcfedeeb6af397f62d1",
                                             name: "chaos-test-tags", path: "/work/x/chaos-test-tags"))
    }

    /// The worker command of the test app that traps, its traps left raw.
    static func tagsCommand() throws -> WorkerCommand {
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no,threads=crashed,registers=none,symbolicate=off,images=mentioned"
        return WorkerCommand(executable: ChaosExecutable.built("chaos-test-tags"), arguments: [], environment: environment)
    }

    /// The raw stderr of a real trap (a tag renamed to nothing), as a worker leaves it.
    static func rawTrap(knownSites: String? = nil) throws -> String {
        try trapped(knownSites: knownSites).stderr
    }

    /// A real trap: the worker's stderr and how it ended.
    static func trapped(knownSites: String?, threadTrap: String? = nil) throws -> (stderr: String, ended: ChildProcess.Termination) {
        let folder = try TemporaryFolder()
        let stderr = folder.url.appendingPathComponent("stderr")
        let command = try tagsCommand()
        var environment = command.environment
        environment[KnownTrapSites.variable] = knownSites
        environment["CHAOS_TEST_TAGS_THREAD_TRAP"] = threadTrap
        let child = try ChildProcess(executable: command.executable, arguments: ["--data", folder.url.appendingPathComponent("data").path],
                                     environment: environment, stderrFile: stderr)
        _ = child.writeLine(#"{"op":"launch","id":1}"#)
        _ = child.writeLine(#"{"op":"perform","id":2,"name":"tags.rename","arguments":{"to":""}}"#)
        child.closeInput()
        // Its end, not its output's: a backtracer orphaned by a second thread's trap holds
        // the output open; ended here with the group.
        let (ended, _) = child.waitForExit(deadline: .now + .seconds(30))
        #expect(child.endGroup().isEmpty, "the runtime's backtracer is not named as the app's")
        return (try String(contentsOf: stderr, encoding: .utf8), ended)
    }

    @Test func aTrapWhoseBacktraceIsHeldIsNotUnwoundAgainAndShowsTheFramesNamedThen() throws {
        let symbolizer = TrapSymbolizer()
        try #require(symbolizer.isAvailable, "the toolchain's llvm-symbolizer and swift-demangle are beside swift")
        #expect(symbolizer.knownSites(for: try Self.tagsCommand()) == "", "no trap held yet: traps say their keys")
        let raw = try Self.trapped(knownSites: "")
        #expect(raw.stderr.contains(KnownTrapSites.keyMarker) && raw.stderr.contains("Program crashed"), "keyed, then backtraced")
        let first = symbolizer.symbolicate(raw.stderr)
        let sites = try #require(symbolizer.knownSites(for: try Self.tagsCommand()))
        #expect(!sites.isEmpty, "the first trap's key is held")
        let again = try Self.trapped(knownSites: sites)
        #expect(again.ended == .signaled(SIGILL), "it ends by the same signal")
        #expect(again.stderr.contains(KnownTrapSites.knownMarker) && !again.stderr.contains("Program crashed"),
                "no backtracer ran: \(again.stderr)")
        let shown = symbolizer.symbolicate(symbolizer.expandKnownTrap(again.stderr))
        #expect(TrapParser.site(in: shown) == "TagsTarget.swift:46")
        #expect(TrapParser.message(in: shown) == TrapParser.message(in: first) && TrapParser.message(in: shown) != nil)
        #expect(shown.contains("TagsTarget.rename(to:) in chaos-test-tags at /"), "the whole backtrace: \(shown)")
        #expect(!shown.contains(KnownTrapSites.knownMarker))
        // A trap with another key is the runtime's, as before: its backtracer runs.
        let elsewhere = try Self.trapped(knownSites: "1,2")
        #expect(elsewhere.ended == .signaled(SIGILL))
        #expect(elsewhere.stderr.contains("Program crashed") && !elsewhere.stderr.contains(KnownTrapSites.knownMarker))
    }

    /// A second thread that traps while the first trap is unwound — sqlite-nio's `deinit`
    /// asserting on its pool's thread as the app's `fatalError` is — waits for the first
    /// to end the process, even at a known site: the report shows the first trap, whole.
    @Test func aSecondThreadsTrapAtAKnownSiteLetsTheFirstBeUnwound() throws {
        let symbolizer = TrapSymbolizer()
        try #require(symbolizer.isAvailable, "the toolchain's llvm-symbolizer and swift-demangle are beside swift")
        let alone = try Self.trapped(knownSites: "", threadTrap: "alone")
        let thread = TrapParser.site(in: symbolizer.symbolicate(alone.stderr))
        #expect(thread?.hasPrefix("TagsTarget.swift:") == true && thread != "TagsTarget.swift:46", "\(alone.stderr)")
        let sites = try #require(symbolizer.knownSites(for: try Self.tagsCommand()))
        #expect(!sites.isEmpty, "the thread's trap is held")
        // The thread traps once the rename's trap is in our handler: it either gets into
        // ours too (then waits there: the runtime cannot suspend it, and says so) or is
        // suspended by the runtime before it traps. Tried until it got into ours (about one
        // try in five here); without the wait, such a try ends the process unwound.
        var tries: [(stderr: String, ended: ChildProcess.Termination)] = []
        while tries.count < 20, !(tries.last?.stderr.contains("failed to suspend") ?? false) {
            tries.append(try Self.trapped(knownSites: sites, threadTrap: "after"))
        }
        #expect(tries.allSatisfy { $0.ended == .signaled(SIGILL) })
        let cut = tries.filter { !$0.stderr.contains("Program crashed") || $0.stderr.contains(KnownTrapSites.knownMarker) }
        #expect(cut.isEmpty, "the first trap was unwound in each of \(tries.count) tries: \(cut.map(\.stderr))")
        let both = try #require(tries.last)
        let shown = symbolizer.symbolicate(symbolizer.expandKnownTrap(both.stderr))
        #expect(TrapParser.site(in: shown) == "TagsTarget.swift:46")
    }

    @Test func trapLinesAreRead() {
        #expect(KnownTrapSites.parse("chaos: trap: key 9c1d0e5f2a3b4c6d in /a b/app") == .init(key: 0x9c1d_0e5f_2a3b_4c6d, executable: "/a b/app", known: false))
        #expect(KnownTrapSites.parse("chaos: trap at a known site: signal 4 key ff in /app") == .init(key: 0xff, executable: "/app", known: true))
        #expect(KnownTrapSites.parse("chaos: trap: key zz in /app") == nil)
        #expect(KnownTrapSites.parse("Fatal error: chaos: trap: key 1 in /app") == nil)
    }

    @Test func aRawTrapIsNamedAndTheSecondTimeCostsNothing() throws {
        let symbolizer = TrapSymbolizer()
        try #require(symbolizer.isAvailable, "the toolchain's llvm-symbolizer and swift-demangle are beside swift")
        let raw = try Self.rawTrap()
        #expect(TrapParser.site(in: raw) == "TagsTarget.swift:46", "the runtime's message line names it even raw")
        let named = symbolizer.symbolicate(raw)
        #expect(named.contains("TagsTarget.rename(to:) in chaos-test-tags at /"), "\(named)")
        #expect(named.contains("/Tests/TargetApps/Tags/TagsTarget.swift:46:"))
        #expect(!named.contains("$s"), "demangled")
        let frames = TrapParser.frames(in: named)
        #expect(frames.first { TrapParser.isProjectCode($0.path) }.map { "\(URL(fileURLWithPath: $0.path).lastPathComponent):\($0.line)" }
                == "TagsTarget.swift:46")
        let runs = symbolizer.toolRuns
        #expect(symbolizer.symbolicate(raw) == named)
        #expect(symbolizer.toolRuns == runs, "a trap whose frames were seen before runs no tool")
    }

    @Test func withoutTheToolsTheWorkerNamesItsOwnFrames() {
        #expect(!TrapSymbolizer(tools: nil).isAvailable)
        #expect(TrapSymbolizer(tools: nil).symbolicate(" 2 [ra] 0x1\n") == " 2 [ra] 0x1\n")
    }
}
