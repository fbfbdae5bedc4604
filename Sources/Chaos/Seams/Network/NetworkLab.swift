import NIOCore
import NIOPosix
import ChaosTarget

/// The network of one case: the family registry (the remote), the fault proxy in
/// front of it, and the one event-loop thread they run on. The case runner starts a
/// lab for the scenarios that need a remote, gives the app the proxy's URL (target
/// option `remote-url`), arms and clears network faults in it, asks it the `remote.*`
/// probes, and stops it when the case ends, however it ends. Stopped, it leaves no
/// listening socket and no thread behind.
///
/// ```swift
/// let lab = try NetworkLab.start()
/// defer { lab.stop() }
/// try lab.arm(NetworkDownFault(), trigger: Trigger(), seed: 1)
/// lab.probe("remote.families")   // .int(0)
/// ```
package final class NetworkLab: Sendable {
    /// The probes it answers, by name.
    package static let probes = ["remote.families", "remote.duplicates", "remote.registrations", "remote.connections"]

    package let registry: FamilyRegistryServer
    package let proxy: NetworkFaultProxy
    private let group: MultiThreadedEventLoopGroup

    private init(registry: FamilyRegistryServer, proxy: NetworkFaultProxy, group: MultiThreadedEventLoopGroup) {
        self.registry = registry
        self.proxy = proxy
        self.group = group
    }

    /// Starts the registry and the proxy on free ports of 127.0.0.1.
    package static func start() throws -> NetworkLab {
        // One thread is plenty for a few connections at a time, and one is less to stop.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let registry = try FamilyRegistryServer.start(group: group)
            do {
                let proxy = try NetworkFaultProxy.start(upstreamPort: registry.port, group: group)
                return NetworkLab(registry: registry, proxy: proxy, group: group)
            } catch {
                registry.stop()
                throw error
            }
        } catch {
            try? group.syncShutdownGracefully()
            throw ChaosError.io("cannot start the network lab: \(error)")
        }
    }

    /// What the app is given as its remote: the proxy, never the registry itself.
    package var remoteURL: String { proxy.url }

    package func arm(_ fault: any NetworkFault, id: String? = nil, trigger: Trigger, seed: UInt64) throws {
        try proxy.arm(fault, id: id, trigger: trigger, seed: seed)
    }

    /// Clears the network faults of `kind` (all when nil); returns their labels.
    @discardableResult
    package func clear(kind: String?) throws -> [String] {
        try proxy.clear(kind: kind)
    }

    /// What the faults did since the last call.
    package func takeFirings() -> [NetworkFiring] { proxy.takeFirings() }

    /// `remote.families`: families registered; `remote.duplicates`: codes registered
    /// twice plus creations (client ids) behind two families; `remote.registrations`:
    /// registration requests received, retries included; `remote.connections`:
    /// connections open through the proxy. Nil for another name.
    package func probe(_ name: String) -> ScenarioValue? {
        switch name {
        case "remote.families": .int(registry.registry.families.count)
        case "remote.duplicates": .int(registry.registry.duplicates)
        case "remote.registrations": .int(registry.registry.registrationRequests)
        case "remote.connections": .int(proxy.openConnections)
        default: nil
        }
    }

    /// Stops the proxy and the registry, then the event-loop thread. Blocks until
    /// everything is closed; call it once, off the event loop.
    package func stop() {
        proxy.stop()
        registry.stop()
        try? group.syncShutdownGracefully()
    }
}
