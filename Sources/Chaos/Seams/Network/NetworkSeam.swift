import ChaosTarget
import Foundation

/// The network: a case that needs a remote gets a network lab (``NetworkLab``: the
/// remote, and the fault proxy in front of it, whose address the app is given); network
/// faults are armed in the proxy, which decides per connection what each fault does, and
/// what they did is gathered after every step.
final class NetworkSeam: FaultSeam {
    private(set) var lab: NetworkLab?

    func carries(_ fault: AnyFault) -> Bool {
        fault.base is any NetworkFault
    }

    /// A lab for a scenario whose app talks to the family registry, that arms a network
    /// fault, or that asks the remote a `remote.*` probe.
    func setUp(for scenario: Scenario, steps: [FaultStep], in setting: SeamSetting) throws(SeamUnavailable) {
        let asksTheRemote = scenario.expectations.contains { if case let .state(probe, _) = $0.kind { probe.hasPrefix("remote.") } else { false } }
        guard scenario.system == "family" || !steps.isEmpty || asksTheRemote else { return }
        do {
            lab = try NetworkLab.start()
        } catch {
            throw .harness("\(error)")
        }
    }

    var targetOptions: [String: String] {
        lab.map { ["remote-url": $0.remoteURL] } ?? [:]
    }

    func inject(_ step: FaultStep, id: String, seed: UInt64, in session: any CaseSession) throws(CaseEnd) -> StepResult {
        guard let fault = step.fault.base as? any NetworkFault else { throw .harness("'\(step.fault.kind)' is not a network fault") }
        guard let lab else { throw .harness("fault '\(step.fault.kind)' needs the network lab, which is not running") }
        do {
            try lab.arm(fault, id: id, trigger: step.trigger, seed: seed)
        } catch {
            throw .harness("arming \(fault.label) in the fault proxy: \(error)")
        }
        return .armed(in: "the fault proxy", step)
    }

    func clear(_ scope: ClearScope, in session: any CaseSession) throws(CaseEnd) -> [String] {
        guard let lab else { return [] }
        let kind: String?
        switch scope {
        case .all: kind = nil
        case let .kind(name) where FaultCatalog.kind(named: name)?.family == .network: kind = name
        default: return []
        }
        do { return try lab.clear(kind: kind) } catch { throw .harness("clearing \(scope.label) in the fault proxy: \(error)") }
    }

    /// The connections the proxy's faults picked and ended since the last step.
    func gather(in session: any CaseSession) {
        for firing in lab?.takeFirings() ?? [] {
            if let id = firing.faultID { session.ledger.update(id) { $0.fired += 1 } }
            session.record(InjectionRecord(kind: firing.kind, target: "proxy", detail: firing.detail,
                                           atMs: session.clock.ms(at: firing.at), count: firing.connection,
                                           mechanism: InjectionRecord.Mechanism.proxy))
        }
    }

    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect {
        let fired = activity.fired
        return fired > 0 ? FaultEffect(hadEffect: true, summary: "acted on \(fired) connection\(fired == 1 ? "" : "s")")
            : FaultEffect(hadEffect: false, summary: "no effect: no connection reached the remote while it was armed")
    }

    func tearDown() {
        lab?.stop()
        lab = nil
    }
}
