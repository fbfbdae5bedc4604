import ChaosTarget
import Foundation

/// Where one family of faults meets the real world, as the case's step loop sees it:
/// the files (``FileSeam``), the app's process (``ProcessSeam``: fault points and
/// storage calls), a real small disk (``DiskSeam``), the network (``NetworkSeam``) and
/// the clock (``ClockSeam``).
///
/// A seam sets up what a scenario's faults need of it, carries each of its fault steps
/// out, clears what a `clear:` names, gathers what fired on its side, and measures what
/// each of its faults did. The kinds decide (`ChaosTarget/Faults/`); a seam only
/// carries their decisions out, so no seam names a kind: it asks a fault what it is
/// (its family, its properties), never which one it is.
protocol FaultSeam: AnyObject {
    /// Whether it carries out `fault`.
    func carries(_ fault: AnyFault) -> Bool
    /// Sets up what the faults it carries in `steps` need, before the first step.
    func setUp(for scenario: Scenario, steps: [FaultStep], in setting: SeamSetting) throws(SeamUnavailable)
    /// A worker command run inside this seam (a namespace, a preload).
    func wrap(_ command: WorkerCommand) -> WorkerCommand
    /// Just before a worker is spawned (its process started at `processStart`: now, or
    /// when its fork server did), and once it runs (the clock's timestamp).
    func workerStarting(processStart: Date) throws
    func workerStarted(pid: pid_t)
    /// Carries out a fault step: applies it now, or arms it.
    func inject(_ step: FaultStep, id: String, seed: UInt64, in context: SeamContext) throws(CaseEnd) -> StepResult
    /// A new worker is up: what stands is armed in it, unless it is `clean` (the
    /// controller's own launch, to read the evidence). Returns whether anything was armed.
    func launched(clean: Bool, in context: SeamContext) throws(CaseEnd) -> Bool
    /// Clears what `scope` names of its faults; says what it cleared.
    func clear(_ scope: ClearScope, in context: SeamContext) throws(CaseEnd) -> [String]
    /// Hears what the app's process told (``AppNews``); returns what its faults did that
    /// the report shows as injections.
    func heard(_ news: AppNews, atMs: Int, ledger: FaultLedger) -> [InjectionRecord]
    /// Records what fired on its side since the last step.
    func gather(in context: SeamContext)
    /// What its fault `activity` (armed by `step`) did, measured at the end of the case.
    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect
    /// Takes down what it set up, on every path (pass, trap, hang, interrupt).
    func tearDown()
}

extension FaultSeam {
    func setUp(for scenario: Scenario, steps: [FaultStep], in setting: SeamSetting) throws(SeamUnavailable) {}
    func wrap(_ command: WorkerCommand) -> WorkerCommand { command }
    func workerStarting(processStart: Date) throws {}
    func workerStarted(pid: pid_t) {}
    func launched(clean: Bool, in context: SeamContext) throws(CaseEnd) -> Bool { false }
    func heard(_ news: AppNews, atMs: Int, ledger: FaultLedger) -> [InjectionRecord] { [] }
    func gather(in context: SeamContext) {}
    func tearDown() {}
}

/// What the app's process tells as it happens, published by ``AppProcess`` to the case's
/// listeners (its ``CaseLog`` and every seam), which take what concerns them: no seam
/// is handed the news by the runner, and none asks the runner for it.
enum AppNews {
    /// A worker's ready line: which seams reached that process.
    case ready(WorkerReady)
    /// An event line: a write acknowledged, a fault fired, a log record.
    case event(WorkerEvent)
    /// A reply, before it is judged: where the faults stand, what the seams saw.
    case reply(WorkerReply)
    /// A run of the app is over (stopped, killed, trapped, hung, or a start that failed);
    /// with the cut and what it cut when the power went out as the case armed it to.
    case exited(powerCut: (order: PowerLossOrder, during: String)?)
}

/// What a fault did, measured: whether it reached what the app reads, in words.
struct FaultEffect: Equatable {
    var hadEffect: Bool
    var summary: String
}

/// Where a case's seams set up: its folders, its deadline, and its mark (what it starts
/// carries it: ``ProcessLeftovers``).
struct SeamSetting {
    var scratch: URL
    var dataDirectory: URL
    var deadline: ContinuousClock.Instant
    var mark: String
    /// The remotes started ahead in a sweep or a hunt (``RemotePool``).
    var remotes: RemotePool?
}

/// Why a seam cannot serve a case.
package enum SeamUnavailable: Error {
    /// The host lacks what the case needs: skipped, with the reason.
    case skipped(String)
    /// Setting up failed: errored.
    case harness(String)

    /// The case's verdict, and why.
    var verdict: (Verdict, String) {
        switch self {
        case let .skipped(reason): (.skipped, reason)
        case let .harness(reason): (.errored, reason)
        }
    }
}

/// What a seam works with in one case, handed to it with each call: the app (to arm and
/// disarm what it carries in the app's process), the ledger of faults, the case's clock
/// and files, what the target declares, and the log its injections go to. The runner
/// makes it from the case's parts; no seam reaches the runner.
struct SeamContext {
    let app: CaseApp
    /// Every fault the case armed, and what each did.
    let ledger: FaultLedger
    let clock: CaseClock
    let files: CaseFiles
    let declaration: TargetDeclaration
    let log: CaseLog

    /// Adds an injection to the case's report.
    func record(_ injection: InjectionRecord) {
        log.injections.append(injection)
    }
}

extension StepResult {
    /// "armed in SEAM: LABEL (TRIGGER)".
    static func armed(in seam: String, _ step: FaultStep) -> StepResult {
        .ok("armed in \(seam): \(step.fault.label)" + (step.trigger.label.isEmpty ? "" : " (\(step.trigger.label))"))
    }
}
