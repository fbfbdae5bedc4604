import ChaosTarget
import Foundation
import Synchronization

/// The fork servers of a sweep: one per trial running at a time, started on first use,
/// each for one worker command. A launch whose command is another (a clock seam's
/// preload, a tmpfs namespace, the backtracer turned on to name a trap) is spawned as
/// usual. A server that cannot start or stops working is not asked again: its launches
/// are spawned as usual, with the same outcome, only slower.
package final class ForkServerPool: Sendable {
    private let size: Int
    private let logDirectory: URL
    private let state = Mutex<(servers: [ForkServer], next: Int, broken: Bool)>(([], 0, false))

    package init(size: Int, logDirectory: URL) {
        self.size = max(1, size)
        self.logDirectory = logDirectory
    }

    /// A server for `command`, or nil when the launch should be spawned as usual.
    func server(for command: WorkerCommand) -> ForkServer? {
        let pick = state.withLock { state -> (ForkServer?, create: Bool) in
            guard !state.broken else { return (nil, false) }
            if state.servers.contains(where: { !$0.isUsable }) {
                state.broken = true
                return (nil, false)
            }
            let matching = state.servers.filter { $0.command == command }
            guard matching.count >= size else { return (nil, true) }
            state.next += 1
            return (matching[state.next % matching.count], false)
        }
        if let server = pick.0 { return server }
        guard pick.create else { return nil }
        let log = logDirectory.appendingPathComponent("fork-server-\(UUID().uuidString.prefix(8)).stderr")
        guard let server = try? ForkServer(command: command, log: log) else {
            state.withLock { $0.broken = true }
            return nil
        }
        state.withLock { $0.servers.append(server) }
        return server
    }

    /// Stops every server (their socket closes; they exit).
    package func shutDown() {
        let servers = state.withLock { state -> [ForkServer] in
            defer { state.servers = [] }
            return state.servers
        }
        for server in servers { server.shutDown() }
    }
}

/// Two commands are the same worker, forked by the same server, whatever each launch
/// sets on its own (``WorkerCommand/PerLaunch``).
extension WorkerCommand: Equatable {
    package static func == (lhs: WorkerCommand, rhs: WorkerCommand) -> Bool {
        lhs.executable == rhs.executable && lhs.arguments == rhs.arguments && lhs.environment == rhs.environment
    }
}
