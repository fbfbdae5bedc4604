import Foundation
import Testing

/// What keeps a worker's start cheap stays true: a sweep starts three workers a trial.
@Suite struct WorkerStartTests {
    /// FoundationNetworking brings libcurl and a TLS stack: ~16 ms of symbol binding at
    /// every process start. Nothing in the `chaos` executable may import it.
    @Test func theChaosExecutableDoesNotLoadFoundationNetworking() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [ChaosExecutable.path]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0)
        #expect(text.contains("libsqlite3"), "ldd listed the libraries: \(text.prefix(200))")
        #expect(!text.contains("FoundationNetworking"), "\(text)")
        #expect(!text.contains("libcurl"), "\(text)")
    }
}
