import Foundation
import ChaosTarget

/// A crash sweep's trials from images: one launch of the app each, not two.
///
/// A trial cuts the power at one write or sync of the workload's first run, then
/// relaunches the app on what the cut left. Run whole, each trial pays for the first
/// run up to its cut, and most of a sweep is the same first run again and again. Here
/// one run of the workload (one a group: a torn cut changes what SQLite writes, so torn
/// trials get a run of their own, tracked as theirs are) takes every trial's image at
/// its moment (`chaos_powerloss.c`, "images": the data folder copied under the
/// simulator's lock and undone in the copy exactly as that cut would undo it in place),
/// and the app's events carry the writes and syncs counted when each was told, so a
/// trial knows which acknowledgements came before its cut. A trial is then a case that
/// starts from its image with those writes told (``CaseStart``) and runs the
/// scenario from the end of its first run (``fromImage(_:)``). Two trials whose images and told writes are the
/// same are one launch: a `drop` cut anywhere between two syncs leaves the same disk.
///
/// A trial that fails this way is run whole, and that run is its result: a
/// finding's report and reproduction are always those of a real cut. So an image can
/// only spare time; it never passes what a whole trial would fail unless the two runs of
/// the app behave differently on the same disk (the sweep's test holds the verdicts of
/// both ways equal, with losses found and without).
///
/// Only where the image is the whole state a trial depends on: the fault VFS cuts the
/// power (not the libc seam), the case runs no remote (whose state a first run would
/// have changed), and nothing stands at the cut (``fromImage(_:)``).
final class CrashImages: @unchecked Sendable {
    /// Why `sweeper`'s trials cannot start from images, or nil when they can.
    static func whyNot(_ sweeper: Sweeper) -> String? {
        let declaration = sweeper.options.target.declaration
        if declaration.storageSeam == .libc { return "the libc seam cuts the power" }
        let steps = sweeper.trialScenario.steps
        if !NetworkSeam.needed(by: sweeper.trialScenario, steps: [], among: declaration.remotes).isEmpty {
            return "the case runs a remote, whose state a first run changes"
        }
        return fromImage(steps) == nil ? "the scenario's first run holds more than launches, actions, stops and checkpoints, "
            + "then faults and clears of the app that is down" : nil
    }

    /// The steps a trial runs from its image: the faults and clears of the app that is
    /// down after the first run, then the second launch and all after it. Nil when a
    /// trial depends on more than its image: the scenario must start with a launch, its
    /// first run be actions, stops and checkpoints only (so nothing stands at its cut:
    /// no full disk, no armed fault, no moved clock), and what follows it before the
    /// second launch faults, clears and waits after a stop: damage to the files
    /// (`corrupt-file`, `delete-file`, `replace-file`), which a whole trial carries out on
    /// the disk its cut left, as a trial from its image does on the image; faults armed
    /// at the next launch (a full disk, an I/O error, a held lock), which a whole trial
    /// arms with the app down after its cut, as a trial from its image does before its
    /// first launch.
    static func fromImage(_ steps: [ScenarioStep]) -> ArraySlice<ScenarioStep>? {
        guard steps.first?.action == .launch,
              let second = steps.indices.dropFirst().first(where: { steps[$0].action == .launch }) else { return nil }
        let run = steps[1..<second].prefix { step in
            switch step.action {
            case .perform, .stop, .checkpoint: true
            default: false
            }
        }
        let down = steps[run.endIndex..<second]
        let appDown = down.allSatisfy { step in
            switch step.action {
            case let .fault(fault): fault.fault.family != .power
            case .clear, .wait: true
            default: false
            }
        }
        // Steps between the runs meet an app that is down only after a stop: one that
        // meets the app running meets it before the cut, which the image then holds.
        guard appDown, down.isEmpty || run.last?.action == .stop else { return nil }
        return steps[run.endIndex...]
    }

    /// A trial's image, the writes told before its cut, and whether the cut fell inside an
    /// action (which a whole trial then leaves unresolved: the keys it wrote may or may
    /// not be there, and an app that tells no `attempt` is not blamed for them).
    private struct Entry {
        var image: URL
        var told: [WorkerEvent]
        var duringAction: Bool
    }

    private let root: URL
    private let verification: Scenario
    private var entries: [String: Entry] = [:]
    private let lock = NSLock()
    /// The report of each image judged so (passed, or inconclusive: one of the scenario's
    /// own faults found nothing to act on, as on that disk it would in a whole trial), by
    /// its digest and told writes.
    private var judged: [ImageDigest: CaseReport] = [:]
    private var launches = 0
    private var served = 0

    /// Takes the images of `trials` (crash trials of `sweeper`); nil when none could be.
    init?(sweeper: Sweeper, trials: [SweepTrial]) {
        guard Self.whyNot(sweeper) == nil, let root = try? ScratchFolder.make(in: sweeper.options.scratchRoot, for: "images") else { return nil }
        self.root = root
        var verification = sweeper.trialScenario
        verification.steps = Array(Self.fromImage(verification.steps) ?? [])
        self.verification = verification
        let numbered = Array(trials.enumerated())
        let (whole, torn) = (numbered.filter { !$0.element.isTorn }, numbered.filter(\.element.isTorn))
        // The two runs side by side: nothing else runs before they end.
        let taken = runBeside({ Self.take(whole, torn: false, in: root, sweeper: sweeper) },
                              { Self.take(torn, torn: true, in: root, sweeper: sweeper) })
        entries = taken.aside.merging(taken.main) { first, _ in first }
        if entries.isEmpty {
            remove()
            return nil
        }
    }

    /// One run of the workload that takes `group`'s images (in `root`, named by index):
    /// an entry for each trial whose image was taken, by its description.
    private static func take(_ group: [(offset: Int, element: SweepTrial)], torn: Bool, in root: URL,
                             sweeper: Sweeper) -> [String: Entry] {
        guard !group.isEmpty else { return [:] }
        var images: [PowerLossImage] = []
        for (index, trial) in group {
            guard case let .powerLoss(moment, mode, seed) = trial else { continue }
            let directory = root.appendingPathComponent(String(index)).path
            switch moment {
            case let .afterWrites(count): images.append(PowerLossImage(afterWrites: count, mode: mode, seed: seed, directory: directory))
            case let .atSync(count): images.append(PowerLossImage(atSync: count, mode: mode, seed: seed, directory: directory))
            case .now, .atPoint: continue
            }
        }
        let carrier = SweepTrial.powerLoss(.afterWrites(Sweeper.pastTheEnd), mode: torn ? .torn : .keep, seed: 0)
        var options = sweeper.options
        options.worker = options.worker.symbolicating(false)
        let runner = CaseRunner(scenario: TrialPlan.apply(carrier, to: sweeper.trialScenario, images: images), options: options, plan: sweeper.plan)
        // The run is judged as a case, but what it is for is its first run: the images it
        // took stand whatever the rest of the scenario did to the data (`visits-reset-data`
        // resets it, which the sweep's `preserved: acknowledged` reads as a loss in a run
        // with no cut). A run that trapped or could not be run leaves its group's trials
        // to run whole.
        let report = runner.run()
        guard report.trap == nil, report.verdict != .errored, report.verdict != .interrupted else { return [:] }
        let (stamped, spans) = (runner.log.stamped, runner.log.actionSpans)
        var entries: [String: Entry] = [:]
        for (index, trial) in group {
            let image = root.appendingPathComponent(String(index))
            guard case let .powerLoss(moment, _, _) = trial, FileManager.default.fileExists(atPath: image.path) else { continue }
            // Before the cut: counted below its moment (a cut after write N comes before
            // anything told once N writes were done; a cut at sync N, before that sync).
            let before: (Int, Int) -> Bool = { writes, syncs in
                switch moment {
                case let .afterWrites(count): writes < count
                case let .atSync(count): syncs < count
                case .now, .atPoint: false
                }
            }
            let told = stamped.filter { event in event.io.map { $0.count == 2 && before($0[0], $0[1]) } ?? false }
            let duringAction = spans.contains { span in before(span.from.writes, span.from.syncs) && !before(span.to.writes, span.to.syncs) }
            entries[trial.description] = Entry(image: image, told: told, duringAction: duringAction)
        }
        return entries
    }

    /// How many trials were judged from their image, and how many launches of the app were made on images.
    var counts: (trials: Int, launches: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (served, launches)
    }

    /// `trial` from its image: its result when it passed (or was inconclusive), nil when
    /// it has no image or failed from it (then it is run whole).
    func run(_ trial: SweepTrial, sweeper: Sweeper, slot: TrialSlot?) -> Sweeper.TrialResult? {
        guard let entry = entries[trial.description] else { return nil }
        let key = Self.digest(of: entry)
        lock.lock()
        let known = judged[key]
        if known != nil { served += 1 }
        lock.unlock()
        if var report = known {
            report.reproduce = sweeper.reproduceCommand(trial)
            return Sweeper.TrialResult(report: report, fired: true, io: nil)
        }
        var options = sweeper.options
        options.worker = options.worker.symbolicating(false)
        var plan = sweeper.plan.holding(slot)
        plan.start = CaseStart(image: entry.image, told: entry.told[...], duringAction: entry.duringAction)
        var report = CaseRunner(scenario: verification, options: options, plan: plan).run()
        lock.lock()
        launches += 1
        let kept = report.verdict == .passed || report.verdict == .inconclusive
        if kept {
            judged[key] = report
            served += 1
        }
        lock.unlock()
        guard kept || report.verdict == .interrupted else { return nil }
        report.reproduce = sweeper.reproduceCommand(trial)
        return Sweeper.TrialResult(report: report, fired: true, io: nil)
    }

    /// The image's files (names and bytes) and the writes told before its cut: two trials
    /// with the same digest are the same launch of the app.
    private static func digest(of entry: Entry) -> ImageDigest {
        var digest = ImageDigest()
        let base = entry.image.path
        let names = (FileManager.default.subpaths(atPath: base) ?? []).sorted()
        for relative in names {
            digest.add(relative)
            // A folder reads as nothing (`read` fails on it): its name is what it adds.
            FileChunks.read(base + "/" + relative, size: 1 << 16) { chunk in digest.add(chunk) }
        }
        for event in entry.told {
            digest.add(event.event.rawValue)
            digest.add(event.key ?? "")
        }
        digest.add(entry.duringAction ? "during an action" : "between actions")
        return digest
    }

    /// Removes the images.
    func remove() {
        ScratchFolder.remove(root)
    }
}

extension SweepTrial {
    /// A power loss that tears sectors: SQLite is told sectors can tear, and writes otherwise.
    var isTorn: Bool {
        if case let .powerLoss(_, mode, _) = self { return mode == .torn }
        return false
    }
}
