import ChaosTarget
import Foundation

/// The app's wall clock: a case with clock faults runs its workers under libfaketime
/// (``FaketimeClock``), whose timestamp file a clock fault rewrites. A clock change
/// reaches the app when an app runs after it: one applied while the app was down bites
/// at the next launch.
final class ClockSeam: FaultSeam {
    private(set) var faketime: FaketimeClock?
    /// Clock faults applied while no app ran, and those an app has run under since.
    private var waiting: Set<String> = []
    private var reached: Set<String> = []

    func carries(_ fault: AnyFault) -> Bool {
        fault.base is any ClockFault
    }

    func setUp(for scenario: Scenario, steps: [FaultStep], in setting: SeamSetting) throws(SeamUnavailable) {
        guard !steps.isEmpty else { return }
        switch FaketimeClock.prepare(scratch: setting.scratch) {
        case let .success(seam): faketime = seam
        case let .failure(.noLibfaketime(reason)): throw .skipped("skipped: \(ClockUnavailable.noLibfaketime(reason))")
        case let .failure(problem): throw .harness("\(problem)")
        }
    }

    func wrap(_ command: WorkerCommand) -> WorkerCommand { faketime?.wrap(command) ?? command }
    func workerStarting(processStart: Date) throws { try faketime?.workerStarting(at: processStart) }
    func workerStarted(pid: pid_t) { faketime?.workerStarted(pid: pid) }

    func inject(_ step: FaultStep, id: String, seed: UInt64, in context: SeamContext) throws(CaseEnd) -> StepResult {
        guard let fault = step.fault.base as? any ClockFault else { throw .harness("'\(step.fault.kind)' is not a clock fault") }
        let done = try change { try $0.apply(fault) }
        if context.app.isRunning { reached.insert(id) } else { waiting.insert(id) }
        context.ledger.update(id) { $0.fired = 1 }
        context.record(InjectionRecord(kind: step.fault.kind, target: "clock", detail: done, atMs: context.clock.elapsedMs,
                                       mechanism: InjectionRecord.Mechanism.libfaketime))
        return .ok(done)
    }

    /// The changes made while the app was down reach the app that starts now.
    func launched(clean: Bool, in context: SeamContext) throws(CaseEnd) -> Bool {
        reached.formUnion(waiting)
        waiting = []
        return false
    }

    func clear(_ scope: ClearScope, in context: SeamContext) throws(CaseEnd) -> [String] {
        guard faketime != nil else { return [] }
        let kind: String?
        switch scope {
        case .all: kind = nil
        case let .kind(name) where FaultCatalog.kind(named: name)?.family == .clock: kind = name
        default: return []
        }
        return ["\(kind ?? "the clock faults") (\(try change { try $0.clear(kind: kind) }))"]
    }

    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect {
        reached.contains(activity.id) ? FaultEffect(hadEffect: true, summary: "the app ran with its clock moved")
            : FaultEffect(hadEffect: false, summary: "no effect: no app ran after the clock moved")
    }

    func tearDown() {
        faketime?.cleanUp()
        faketime = nil
    }

    /// Rewrites the clock of the case's workers.
    private func change(_ change: (FaketimeClock) throws -> String) throws(CaseEnd) -> String {
        guard let faketime else { throw .harness("clock faults need the libfaketime seam, which this case did not prepare") }
        do {
            return try change(faketime)
        } catch {
            throw .harness("moving the app's clock: \(error)")
        }
    }
}
