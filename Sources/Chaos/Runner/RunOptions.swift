import Foundation
import ChaosTarget

/// How a run is carried out: on which target (bound once: ``TargetSelection``), with
/// which seed, where its scratch goes.
package struct RunOptions: Sendable {
    /// The target, its variant and its declaration.
    package var target: TargetSelection
    /// Overrides every scenario's own seed when set (`--seed`).
    package var seed: UInt64?
    /// Keep each case's scratch directory (`--keep`).
    package var keepScratch: Bool
    /// Where scratch directories are made.
    package var scratchRoot: URL
    /// Target options that override the scenario's own (`--option synchronous=off`).
    package var optionOverrides: [String: String] = [:]
    /// Starts the workers instead of ``worker``: a test's app without a process.
    var launcher: (any WorkerLauncher & Sendable)?
    /// Ask every worker to name the fault points it hits (``CaseLog/pointsHit``): the
    /// plain first run of `chaos hunt`.
    package var countPoints = false
    /// The longest one launch, or one other request, may take before the app counts as
    /// hung (a hunt's or a sweep's bound, learnt from its plain run): a hang known in seconds, not at
    /// the case's timeout. Nil: only the case's timeout bounds a step.
    package var stepBound: StepBound?
    /// How long a failed read is asked again at most, when shorter than the scenario's
    /// `recovered-within` (a hunt's shrink: ``FindingShrinker/recoveryCap(slowestRecoveryMs:bound:)``).
    /// Nil: the scenario's bound.
    package var recoveryPollCap: Duration?
    /// Fork servers for the workers of ``worker`` (a sweep's trials); nil: spawn each.
    package var forkServers: ForkServerPool?
    /// The remotes a sweep's or a hunt's cases take already listening; nil: each case
    /// starts its own.
    package var remotePool: RemotePool?
    /// Where a case starts from instead of an empty data folder: a crash image
    /// (``CrashImages``), and the writes the app had told before that cut.
    var start: CaseStart?

    package init(target: TargetSelection, seed: UInt64?, keepScratch: Bool,
                 scratchRoot: URL = FileManager.default.temporaryDirectory) {
        self.target = target
        self.seed = seed
        self.keepScratch = keepScratch
        self.scratchRoot = scratchRoot
    }

    /// One of the variants the target declares (any name for one that declares none).
    package var variant: String { target.variant }

    /// How a worker of the target starts (a sweep names its traps' sites or not).
    package var worker: WorkerCommand {
        get { target.worker }
        set { target.worker = newValue }
    }
}

extension RunOptions {
    /// The words of a reproduce line after its seed and variant: every choice of this run
    /// that the scenario does not hold — the target options (`--option K=V`, sorted) and
    /// a user's target (`--target-exec PATH`). A printed line must give the same verdict.
    package var reproduceExtras: [String] {
        var words: [String] = []
        for (key, value) in optionOverrides.sorted(by: { $0.key < $1.key }) { words += ["--option", "\(key)=\(value)"] }
        if let path = target.targetExec { words += ["--target-exec", path] }
        return words
    }
}

/// A hunt's or a sweep's bound on one step, for launches and for everything else apart: a launch may
/// legitimately wait out a library's connect timeout (10 s for postgres-nio) where an
/// action that waits that long is stuck.
package struct StepBound: Sendable, Equatable {
    package var launch: Duration
    package var action: Duration

    package init(launch: Duration, action: Duration) {
        self.launch = launch
        self.action = action
    }

    /// The bound learnt from a plain run whose slowest launch or action took
    /// `slowestPlainMs`: ten times as long, and never less than 6 s (a hunt's and a
    /// sweep's; a sweep raises it to its oracle's bound).
    package static func learnt(slowestPlainMs: Int) -> StepBound {
        learnt(slowestLaunchMs: slowestPlainMs, slowestActionMs: slowestPlainMs)
    }

    /// The same, a launch's and an action's each from their own slowest: an app whose
    /// launch is slow (a database made on a server, a connection) keeps quick actions,
    /// and a hang at one is known in seconds, not at the case's limit.
    package static func learnt(slowestLaunchMs: Int, slowestActionMs: Int) -> StepBound {
        StepBound(launch: max(Duration.seconds(6), .milliseconds(slowestLaunchMs * 10)),
                  action: max(Duration.seconds(6), .milliseconds(slowestActionMs * 10)))
    }

    /// The bound on a request of `op`.
    func bound(of op: WorkerOperation) -> Duration { op == .launch ? launch : action }
}
