import Foundation
import NIOCore
import NIOPosix
import ChaosTarget

/// The network of one case: the remotes the target declares that the case needs, each
/// started or reached (``RemoteServer``), a fault proxy in front of each (the only
/// address the app is given), and the one event-loop thread the proxies run on. The
/// network seam arms and clears network faults in it, asks it the `remote.*` probes,
/// and stops it when the case ends, however it ends. Stopped, it leaves no server, no
/// listening socket and no thread behind.
///
/// ```swift
/// let lab = try NetworkLab.start([registry], scratch: folder, mark: mark, deadline: .now + .seconds(30))
/// defer { lab.stop() }
/// try lab.proxy(nil)?.arm(NetworkDownFault(), trigger: Trigger(), seed: 1)
/// lab.probe("remote.connections")   // .int(0)
/// ```
package final class NetworkLab {
    /// The probe every lab answers: connections open through the proxies now.
    package static let connectionsProbe = "remote.connections"
    /// How scenarios name a remote's own probes: `remote.NAME`.
    package static let probePrefix = "remote."

    private let group: MultiThreadedEventLoopGroup
    private let servers: [RemoteServer]
    /// The proxy in front of each remote, by the remote's name.
    private let proxies: [String: NetworkFaultProxy]
    /// Where the servers come from and go to in a sweep or a hunt.
    private let pool: RemotePool?

    private init(group: MultiThreadedEventLoopGroup, servers: [RemoteServer], proxies: [String: NetworkFaultProxy], pool: RemotePool?) {
        self.group = group
        self.servers = servers
        self.proxies = proxies
        self.pool = pool
    }

    /// Starts or reaches each of `remotes` (a server `pool` started ahead, if it has one
    /// ready), and a proxy in front of each on a free port of 127.0.0.1. On a failure,
    /// what was started is stopped.
    package static func start(_ remotes: [Remote], scratch: URL, mark: String, deadline: ContinuousClock.Instant,
                              pool: RemotePool? = nil) throws(SeamUnavailable) -> NetworkLab {
        // One thread is plenty for a few connections at a time, and one is less to stop.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var servers: [RemoteServer] = []
        var proxies: [String: NetworkFaultProxy] = [:]
        let fail = { (problem: SeamUnavailable) -> SeamUnavailable in
            NetworkLab(group: group, servers: servers, proxies: proxies, pool: pool).stop()
            return problem
        }
        for remote in remotes {
            let server: RemoteServer
            if let ready = pool?.take(remote) {
                server = ready
            } else {
                do { server = try RemoteServer.start(remote, scratch: scratch, mark: mark, deadline: deadline) } catch { throw fail(error) }
            }
            servers.append(server)
            do {
                proxies[remote.name] = try NetworkFaultProxy.start(upstreamHost: server.host, upstreamPort: server.port, group: group)
            } catch {
                throw fail(.harness("cannot start the fault proxy in front of '\(remote.name)': \(error)"))
            }
        }
        return NetworkLab(group: group, servers: servers, proxies: proxies, pool: pool)
    }

    /// Where the app reaches each remote: its proxy.
    package var addresses: [String: RemoteAddress] { proxies.mapValues(\.address) }

    /// The proxy of the remote `name`, or of the only remote when nil.
    package func proxy(_ name: String?) -> NetworkFaultProxy? {
        if let name { return proxies[name] }
        return proxies.count == 1 ? proxies.values.first : nil
    }

    /// Clears the network faults of `kind` (all when nil) on every proxy; their labels.
    @discardableResult
    package func clear(kind: String?) throws -> [String] {
        try proxies.keys.sorted().flatMap { try proxies[$0]?.clear(kind: kind) ?? [] }
    }

    /// Closes the connections open through every proxy (``NetworkFaultProxy/closeOpenConnections()``).
    package func closeOpenConnections() {
        for proxy in proxies.values { proxy.closeOpenConnections() }
    }

    /// What the faults of every proxy did since the last call, in the order it happened.
    package func takeFirings() -> [NetworkFiring] {
        proxies.keys.sorted().flatMap { proxies[$0]?.takeFirings() ?? [] }.sorted { $0.at < $1.at }
    }

    /// `remote.connections`: connections open through the proxies; `remote.NAME`: the
    /// probe `NAME` a remote declares, asked of the remote itself. Nil for another name.
    package func probe(_ name: String) -> ScenarioValue? {
        if name == Self.connectionsProbe { return .int(proxies.values.reduce(0) { $0 + $1.openConnections }) }
        guard name.hasPrefix(Self.probePrefix) else { return nil }
        let probe = String(name.dropFirst(Self.probePrefix.count))
        for server in servers {
            if let path = server.remote.probes[probe] { return RemoteProbe.get(host: server.host, port: server.port, path: path) }
        }
        return nil
    }

    /// The record keys the remote `name` holds, asked of it at its declared
    /// ``Remote/snapshot`` (nil: it declares none, is not running, or did not answer a JSON
    /// list of strings).
    package func snapshot(ofRemote name: String) -> Set<String>? {
        guard let server = servers.first(where: { $0.remote.name == name }), let path = server.remote.snapshot,
              case let .list(items)? = RemoteProbe.get(host: server.host, port: server.port, path: path) else { return nil }
        let keys = items.compactMap { item -> String? in if case let .string(key) = item { key } else { nil } }
        return keys.count == items.count ? Set(keys) : nil
    }

    /// Every probe name the remotes of `declaration` answer, as a scenario writes it.
    package static func probes(of declaration: TargetDeclaration) -> [String] {
        [connectionsProbe] + declaration.remotes.flatMap { $0.probes.keys.map { probePrefix + $0 } }.sorted()
    }

    /// Stops the proxies, the servers Chaos started (one a pool started ended in the
    /// background: the pool waits for it before its command ends; one the case started,
    /// its folder in the case's scratch, before the scratch goes), then the event-loop
    /// thread. Blocks until everything but a pool's servers is closed; call it once, off
    /// the event loop.
    package func stop() {
        for proxy in proxies.values { proxy.stop() }
        for server in servers {
            if let pool, server.isPooled { pool.retire(server) } else { server.stop() }
        }
        try? group.syncShutdownGracefully()
    }
}
