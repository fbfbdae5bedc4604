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

    /// The raw stderr of a real trap (a tag renamed to nothing), as a worker leaves it.
    static func rawTrap() throws -> String {
        let folder = try TemporaryFolder()
        let stderr = folder.url.appendingPathComponent("stderr")
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no,threads=crashed,registers=none,symbolicate=off,images=mentioned"
        let child = try ChildProcess(executable: ChaosExecutable.built("chaos-test-tags"), arguments: ["--data", folder.url.appendingPathComponent("data").path],
                                     environment: environment, stderrFile: stderr)
        _ = child.writeLine(#"{"op":"launch","id":1}"#)
        _ = child.writeLine(#"{"op":"perform","id":2,"name":"tags.rename","arguments":{"to":""}}"#)
        child.closeInput()
        while case .line = child.readLine(deadline: .now + .seconds(30)) {}
        _ = child.waitForExit(deadline: .now + .seconds(30))
        return try String(contentsOf: stderr, encoding: .utf8)
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
