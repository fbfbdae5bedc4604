import Chaos
import Foundation
import NIOPosix
import ReferenceTarget

/// The reference app's registry in this process, behind a case's network lab as a
/// declared remote that already listens: what the proxy and lab tests drive.
final class RegistryLab {
    let registry: FamilyRegistryServer
    let lab: NetworkLab
    private let group: MultiThreadedEventLoopGroup

    private init(registry: FamilyRegistryServer, lab: NetworkLab, group: MultiThreadedEventLoopGroup) {
        self.registry = registry
        self.lab = lab
        self.group = group
    }

    static func start() throws -> RegistryLab {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let registry = try FamilyRegistryServer.start(group: group)
        let remote = Remote.address("registry", host: "127.0.0.1", port: registry.port, probes: FamilyRegistryServer.probes)
        do {
            let lab = try NetworkLab.start([remote], scratch: FileManager.default.temporaryDirectory, mark: "test",
                                           deadline: .now + .seconds(10))
            return RegistryLab(registry: registry, lab: lab, group: group)
        } catch {
            registry.stop()
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    var proxy: NetworkFaultProxy { lab.proxy(nil)! }
    var remoteURL: String { lab.addresses["registry"]?.url()?.absoluteString ?? "" }

    func arm(_ fault: any NetworkFault, id: String? = nil, trigger: Trigger, seed: UInt64) throws {
        try proxy.arm(fault, id: id, trigger: trigger, seed: seed)
    }

    @discardableResult
    func clear(kind: String?) throws -> [String] { try lab.clear(kind: kind) }
    func takeFirings() -> [NetworkFiring] { lab.takeFirings() }
    func probe(_ name: String) -> ScenarioValue? { lab.probe(name) }

    func stop() {
        lab.stop()
        registry.stop()
        try? group.syncShutdownGracefully()
    }
}
