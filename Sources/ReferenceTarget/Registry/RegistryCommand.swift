import Foundation
import NIOPosix

/// `chaos registry --port N`: the family registry as a server of its own, the reference
/// target's declared remote (``SystemUnderTestTarget/remotes``). Chaos starts one for each
/// case that needs it, puts its fault proxy in front, and ends it with the case.
/// Internal, as `chaos worker` is: taken before ArgumentParser parses anything.
package enum RegistryCommand {
    package static let subcommand = "registry"

    /// Serves until killed; returns an exit code when it cannot start.
    package static func run(arguments: [String]) -> Int32 {
        guard arguments.count == 2, arguments[0] == "--port", let port = Int(arguments[1]), (1...65_535).contains(port) else {
            FileHandle.standardError.write(Data("usage: chaos registry --port N\n".utf8))
            return 64
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            _ = try FamilyRegistryServer.start(group: group, port: port)
        } catch {
            FileHandle.standardError.write(Data("chaos registry: \(error)\n".utf8))
            return 1
        }
        // The server runs on the event loop; this thread waits for the controller to go:
        // its end of stdin closes when it ends, however it ends.
        var byte: UInt8 = 0
        while read(0, &byte, 1) != 0 {}
        return 0
    }
}
