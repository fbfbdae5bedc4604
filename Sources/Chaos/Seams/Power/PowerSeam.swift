import ChaosTarget

/// The power, as a seam like the others: a `power-loss` fault (``PowerLossFault``) cuts it now, or arms a cut
/// at a later write, sync or fault point of the running app (of the next launch, when
/// the app is down); a `memory-kill` (``MemoryKillFault``) is the same end at the moment
/// the app's memory passes a bound, keeping every write. Each is a ``PowerFault``: the
/// seam carries out the order it gives. A cut waits for its moment in one run of the app: if that run ends
/// first, it is gone. The cut itself is made in the app's process, below its SQLite
/// (the fault VFS) or at its file calls (the libc seam); this seam arms it, disarms it
/// on `clear`, hears when the app went dark, and measures whether its moment came.
///
/// It listens rather than asks (``heard(_:atMs:ledger:)``): the worker's replies tell it
/// the writes and syncs it saw, and the app's process when a run ended, and whether the
/// power went out.
final class PowerSeam: FaultSeam {
    /// Where the cut is simulated: below the target's SQLite, or at the file level
    /// through the libc seam (a target that keeps no SQLite).
    let mechanism: String
    /// The power is out: the app is down until the next launch.
    private(set) var isOut = false
    /// A cut written while the app was down: armed at the next launch.
    private var plan: (order: PowerLossOrder, id: String)?
    /// The cut armed in the running app, waiting for its moment.
    private(set) var pending: PowerLossOrder?
    /// The activity id of the cut armed in the running app, if any.
    private var armedID: String?
    /// What every worker tracks for the scenario's power losses: nil when it has none,
    /// else whether a cut tears writes (`torn`).
    private var tracksTorn: Bool?
    /// The writes and syncs the seam that cuts the power saw in the running app.
    private var trackedIO: TrackedIO?
    /// The kind of each end armed, by its activity id: what the report's injection names.
    private var kinds: [String: String] = [:]

    init(declaration: TargetDeclaration) {
        mechanism = declaration.storageSeam == .libc ? InjectionRecord.Mechanism.libc : InjectionRecord.Mechanism.vfs
    }

    func carries(_ fault: AnyFault) -> Bool { fault.family == .power }

    /// Every worker tracks its writes when the scenario cuts the power; sector by sector
    /// when a cut tears them.
    func setUp(for scenario: Scenario, steps: [FaultStep], in setting: SeamSetting) throws(SeamUnavailable) {
        let cuts = steps.compactMap { $0.fault.base as? any PowerFault }
        tracksTorn = cuts.isEmpty ? nil : cuts.contains { $0.tearsWrites }
    }

    /// Whether a cut waits for its moment, in the running app or for the next launch.
    var cutWaits: Bool { plan != nil || pending != nil }

    /// Cuts the power now, or arms a cut (in the running app, or for its next launch).
    func inject(_ step: FaultStep, id: String, seed: UInt64, in context: SeamContext) throws(CaseEnd) -> StepResult {
        guard let cut = step.fault.base as? any PowerFault else { throw .harness("'\(step.fault.kind)' is not a power loss") }
        let order = cut.order(caseSeed: seed)
        kinds[id] = step.fault.kind
        guard context.app.isRunning else {
            plan = (order, id)
            return .ok("armed for the next launch: \(cut.label)")
        }
        if order.isNow {
            armedID = id
            guard try context.app.ask(WorkerRequest(.powerLoss(order))) == nil else {
                throw .harness("the worker answered instead of losing power")
            }
            return .ok("the power went out (\(order.mode.rawValue))")
        }
        try arm(order, id: id, in: context)
        return .ok("armed: \(cut.label)")
    }

    /// A new worker: it tracks its writes for the scenario's cuts, and a cut written while
    /// the app was down is armed in it (not in the controller's own `clean` launch).
    func launched(clean: Bool, in context: SeamContext) throws(CaseEnd) -> Bool {
        isOut = false
        if let tracksTorn { _ = try context.app.ask(WorkerRequest(.trackWrites(torn: tracksTorn))) }
        guard !clean, let (order, id) = plan else { return false }
        plan = nil
        try arm(order, id: id, in: context)
        return true
    }

    private func arm(_ order: PowerLossOrder, id: String, in context: SeamContext) throws(CaseEnd) {
        armedID = id
        guard try context.app.ask(WorkerRequest(.powerLoss(order))) != nil else { return }
        pending = order
    }

    /// `clear: power-loss` (or `clear: all`) disarms a cut waiting for its moment.
    func clear(_ scope: ClearScope, in context: SeamContext) throws(CaseEnd) -> [String] {
        var cleared = false
        if let (_, id) = plan, context.ledger.scope(scope, covers: id) {
            plan = nil
            cleared = true
        }
        if pending != nil, let id = armedID, context.ledger.scope(scope, covers: id) {
            pending = nil
            cleared = true
            _ = try context.app.ask(WorkerRequest(.disarm(PowerLossOrder.pointID)))
        }
        return cleared ? ["the power loss"] : []
    }

    /// A reply: the writes and syncs the worker tracked so far. A run that ended: the cut
    /// armed in it is over; when the power went out, the app is down and the cut is an
    /// injection of the report.
    func heard(_ news: AppNews, atMs: Int, ledger: FaultLedger) -> [InjectionRecord] {
        switch news {
        case let .reply(reply):
            if let tracked = reply.status.tracked { trackedIO = tracked }
        case let .exited(cut?):
            isOut = true
            let when = cut.order.isNow ? "now" : "during '\(cut.during)'"
            let kind = armedID.flatMap { kinds[$0] } ?? PowerLossFault.kind
            let detail = cut.order.memory == nil ? "power lost \(when), \(cut.order.mode.rawValue) unsynced writes"
                : "\(cut.order.endWords) \(when), its written data kept"
            runEnded(powerLost: true, ledger: ledger)
            return [InjectionRecord(kind: kind, target: cut.order.memory == nil ? "store" : "process", detail: detail,
                                    atMs: atMs, mechanism: cut.order.memory == nil ? mechanism : InjectionRecord.Mechanism.signal)]
        case .exited(nil):
            runEnded(powerLost: false, ledger: ledger)
        case .ready, .event:
            break
        }
        return []
    }

    /// A run of the app ended: the cut armed in it is over, with what it saw.
    private func runEnded(powerLost: Bool, ledger: FaultLedger) {
        pending = nil
        guard let id = armedID else { return }
        armedID = nil
        let io = trackedIO
        ledger.update(id) { activity in
            activity.fired = powerLost ? 1 : 0
            activity.writes = io?.writes
            activity.syncs = io?.syncs
        }
    }

    /// Why a launch may not come yet: a scenario's own cut armed in the running app never
    /// came, a mistake of the scenario (a sweep trial's lives in the first run only, and
    /// may well not come; a cut whose seam saw none of the app's writes had no effect,
    /// and says why at the end of the case).
    var cutNeverCame: String? {
        guard let pending, pending.memory == nil, armedID != TrialPlan.faultID, !sawNothing else { return nil }
        let armedAt = (armedID ?? "an earlier step").replacingOccurrences(of: "-", with: " ")
        return "the power loss armed at \(armedAt) never happened before this launch: its moment was not reached by the steps in between"
    }

    /// The seam that cuts the power saw none of the app's writes and syncs while a cut
    /// waited: the cut could not come, whatever the steps did.
    private var sawNothing: Bool {
        guard let io = trackedIO else { return true }
        return io.writes == 0 && io.syncs == 0
    }

    /// What a power loss did: whether its moment came.
    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect {
        let order = (step.fault.base as? any PowerFault)?.order(caseSeed: 0)
        if activity.fired > 0 { return FaultEffect(hadEffect: true, summary: order?.endWords ?? "the power went out") }
        let io = activity.writes.map { " (\($0) writes, \(activity.syncs ?? 0) syncs while it waited)" } ?? ""
        if order?.memory != nil { return FaultEffect(hadEffect: false, summary: "no effect: the app's memory never passed the bound\(io)") }
        let unreached = (activity.writes ?? 0) == 0 && (activity.syncs ?? 0) == 0 ? " — \(whyUnreached)" : ""
        return FaultEffect(hadEffect: false, summary: "no effect: its moment never came\(io)\(unreached)")
    }

    /// Why a cut that saw no write never came: the seam that cuts the power does not reach
    /// the app's files.
    private var whyUnreached: String {
        mechanism == InjectionRecord.Mechanism.libc
            ? "the libc seam saw none of the app's writes under its data folder (is it loaded? does the app write elsewhere?)"
            : "the fault VFS saw none of the app's writes: its SQLite is not the copy the VFS is installed into (sqlite-nio and "
                + "SQLCipher compile their own: declare it, `static let sqlite = [SQLiteLibrary.sqliteNIO]`; for plain files, "
                + "`static let sqlite: [SQLiteLibrary] = []`)"
    }
}
