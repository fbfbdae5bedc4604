import ChaosTarget
import Foundation

/// What a campaign asks of one case beyond its scenario and the run's options (which are
/// the user's: target, seed, scratch, `--option`): how long a step may take, where the
/// case starts from, the servers its workers and remotes come from, the trial pool's
/// place it holds. `chaos run` asks nothing of the kind (``init()``); a sweep, a hunt and
/// a crash image each set what is theirs on the plans of their cases.
package struct CasePlan: Sendable {
    /// The longest one launch, or one other request, may take before the app counts as
    /// hung (learnt from a plain run): a hang known in seconds, not at the case's timeout.
    /// Nil: only the case's timeout bounds a step.
    package var stepBound: StepBound?
    /// How long a failed read is asked again at most, when shorter than the scenario's
    /// `recovered-within` (a hunt's shrink: ``FindingShrinker/recoveryCap(slowestRecoveryMs:bound:)``).
    package var recoveryPollCap: Duration?
    /// Ask every worker to name the fault points it hits (``CaseLog/pointsHit``): the
    /// plain first run of `chaos hunt`.
    package var countPoints = false
    /// Where the case starts from instead of an empty data folder: a crash image
    /// (``CrashImages``), and the writes the app had told before that cut.
    var start: CaseStart?
    /// Fork servers for the case's workers; nil: spawn each.
    package var forkServers: ForkServerPool?
    /// The remotes the case takes already listening; nil: it starts its own.
    package var remotePool: RemotePool?
    /// The place the case holds in a ``TrialPool``, given up while its app keeps it
    /// waiting; nil outside a pool.
    var slot: TrialSlot?
    /// Starts the workers instead of the target's command: an app without a process.
    var launcher: (any WorkerLauncher & Sendable)?

    package init() {}

    /// The same plan holding `slot` (nil: none, outside a pool).
    func holding(_ slot: TrialSlot?) -> CasePlan {
        var plan = self
        plan.slot = slot
        return plan
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

extension CasePlan {
    /// Starts what a campaign's cases take their workers and remotes from: `jobs` fork
    /// servers (AFL's: workers forked from a warmed-up one, since a fresh process pays
    /// most of a trial's time) and a pool of remotes started ahead of the cases
    /// (``RemotePool``), their logs and folders in one scratch folder named for
    /// `campaign`. Returns what stops them and removes that folder.
    mutating func startServers(jobs: Int, in scratchRoot: URL, for campaign: String) -> () -> Void {
        let logs = try? ScratchFolder.make(in: scratchRoot, for: campaign)
        let pool = ForkServerPool(size: jobs, logDirectory: logs ?? scratchRoot)
        let remotes = logs.map(RemotePool.init(in:))
        (forkServers, remotePool) = (pool, remotes)
        return {
            remotes?.shutDown()
            pool.shutDown()
            if let logs { try? FileManager.default.removeItem(at: logs) }
        }
    }
}
