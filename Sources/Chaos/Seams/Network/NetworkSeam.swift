import ChaosTarget
import Foundation

/// The network: the remotes the target declares (``Remote``) that a case needs run for
/// it in a network lab (``NetworkLab``), each behind a fault proxy whose address is what
/// the app is given; network faults are armed in the proxy of the remote they name, which
/// decides per connection what each fault does, and what they did is gathered after
/// every step.
final class NetworkSeam: FaultSeam {
    private(set) var lab: NetworkLab?
    private let remotes: [Remote]
    /// What each fault did, by its id: the connections it picked, and what it did to the
    /// listener — the one source of its injections' details and of its measured effect.
    private var acts: [String: (connections: Int, listener: [String])] = [:]

    init(remotes: [Remote]) {
        self.remotes = remotes
    }

    func carries(_ fault: AnyFault) -> Bool {
        fault.base is any NetworkFault
    }

    /// The remotes a case needs: those its system talks to, those its network faults
    /// name (the only one, when a fault names none), those it asks a probe of.
    static func needed(by scenario: Scenario, steps: [FaultStep], among remotes: [Remote]) -> [Remote] {
        let probes = scenario.expectations.compactMap { expectation -> String? in
            if case let .state(probe, _) = expectation.kind, probe.hasPrefix(NetworkLab.probePrefix) { return probe }
            return nil
        }
        return remotes.filter { remote in
            let byFault = steps.contains { $0.remote == remote.name || ($0.remote == nil && remotes.count == 1) }
            let bySystem = remote.serves(scenario.system)
            let byProbe = probes.contains { $0 == NetworkLab.connectionsProbe || remote.probes[String($0.dropFirst(NetworkLab.probePrefix.count))] != nil }
            return byFault || bySystem || byProbe
        }
    }

    func setUp(for scenario: Scenario, steps: [FaultStep], in setting: SeamSetting) throws(SeamUnavailable) {
        let needed = Self.needed(by: scenario, steps: steps, among: remotes)
        guard !needed.isEmpty else { return }
        lab = try NetworkLab.start(needed, scratch: setting.scratch, mark: setting.mark + "/remote", deadline: setting.deadline,
                                   pool: setting.remotes)
    }

    /// Where the app reaches each remote of the case: its proxy.
    var addresses: [String: RemoteAddress] { lab?.addresses ?? [:] }

    func inject(_ step: FaultStep, id: String, seed: UInt64, in context: SeamContext) throws(CaseEnd) -> StepResult {
        guard let fault = step.fault.base as? any NetworkFault else { throw .harness("'\(step.fault.kind)' is not a network fault") }
        guard let proxy = lab?.proxy(step.remote) else {
            throw .harness("fault '\(step.fault.kind)' needs \(step.remote.map { "the remote '\($0)'" } ?? "a remote"), "
                + "which this case does not run (the target declares: \(NameList.text(remotes.map(\.name))))")
        }
        // Armed while the app is down: what is still open through the proxy is what the
        // ended app left, not yet read as closed. It must not take the fault's first picks.
        if !context.app.isRunning { lab?.closeOpenConnections() }
        do {
            try proxy.arm(fault, id: id, trigger: step.trigger, seed: seed)
        } catch {
            throw .harness("arming \(fault.label) in the fault proxy: \(error)")
        }
        return .armed(in: "the fault proxy" + (step.remote.map { " of \($0)" } ?? ""), step)
    }

    func clear(_ scope: ClearScope, in context: SeamContext) throws(CaseEnd) -> [String] {
        guard let lab else { return [] }
        let kind: String?
        switch scope {
        case .all: kind = nil
        case let .kind(name) where FaultCatalog.kind(named: name)?.family == .network: kind = name
        default: return []
        }
        do { return try lab.clear(kind: kind) } catch { throw .harness("clearing \(scope.label) in the fault proxy: \(error)") }
    }

    /// The connections the proxies' faults picked and ended since the last step.
    func gather(in context: SeamContext) {
        for firing in lab?.takeFirings() ?? [] {
            if let id = firing.faultID {
                context.ledger.update(id) { $0.fired += 1 }
                if firing.connection != nil { acts[id, default: (0, [])].connections += 1 } else { acts[id, default: (0, [])].listener.append(firing.detail) }
            }
            context.record(InjectionRecord(kind: firing.kind, target: "proxy", detail: firing.detail,
                                           atMs: context.clock.ms(at: firing.at), count: firing.connection,
                                           mechanism: InjectionRecord.Mechanism.proxy))
        }
    }

    /// A fault that acted on no connection, and closed no listener, proves nothing: the
    /// app never reached the remote while it was armed. Said in the words of the fault's
    /// own injections.
    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect {
        let act = acts[activity.id] ?? (0, [])
        var parts = act.listener
        if act.connections > 0 { parts.insert("acted on \(act.connections) connection\(act.connections == 1 ? "" : "s")", at: 0) }
        guard activity.fired > 0, !parts.isEmpty else {
            return FaultEffect(hadEffect: false, summary: "no effect: no connection reached the remote while it was armed")
        }
        return FaultEffect(hadEffect: true, summary: parts.joined(separator: "; "))
    }

    func tearDown() {
        lab?.stop()
        lab = nil
    }
}
