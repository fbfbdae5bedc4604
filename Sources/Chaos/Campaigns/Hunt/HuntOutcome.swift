import ChaosTarget
import Foundation

/// What a hunt came to: the counts of its schedules, its findings, and its timings (the
/// figures `make bench` prints).
package struct HuntOutcome: Sendable {
    package var seed: UInt64
    package var surface: HuntSurface?
    package var schedules = 0
    package var bitten = 0
    package var idle = 0
    package var failedSchedules = 0
    package var errored = 0
    package var firstError: String?
    /// Worker launches of the schedules (not of shrinking).
    package var launches = 0
    package var failuresBySignature: [String: Int] = [:]
    /// The launches and actions each failure struck (a trap's or a hang's step), by signature.
    package var struckBySignature: [String: [String]] = [:]
    package var findings: [HuntFinding] = []
    /// Each finding's file, run as it is.
    package var cases: [CaseReport] = []
    package var shrinkRuns = 0
    /// Hangs seen under the hunt's bound on one step that their file, run at the case's
    /// full timeout, never showed: slow steps, not hangs — not findings.
    package var unconfirmedHangs = 0
    /// Ways of failing that, shrunk, proved the cause of a finding already made: counted there.
    package var sameCause = 0
    package var runMs = 0
    /// From the hunt's start to when the first schedule that failed was read; nil when none did.
    package var firstFailureMs: Int?
    /// How its schedules were chosen, and for a guided hunt how many joined its corpus.
    package var strategy = HuntStrategy.random
    package var corpus: Int?
    package var durationMs = 0
    package var interrupted = false

    init(seed: UInt64) {
        self.seed = seed
    }

    /// Counts one schedule's result.
    mutating func count(_ schedule: HuntSchedule, _ ran: HuntRunner.Ran) {
        schedules += 1
        guard let report = ran.report else {
            errored += 1
            firstError = firstError ?? "schedule \(schedule.index): the scenario format or the target refused it"
            return
        }
        launches += report.workerLaunches
        if schedule.injects {
            if report.injections.isEmpty { idle += 1 } else { bitten += 1 }
        }
        if report.verdict == .errored {
            errored += 1
            firstError = firstError ?? "schedule \(schedule.index): \(report.error ?? "errored")"
            HuntRunner.debug("schedule \(schedule.index) errored: \(report.error ?? "")")
        }
        if let failure = ran.failure {
            failedSchedules += 1
            failuresBySignature[failure.signature, default: 0] += 1
            if failure.isTrapOrHang, let step = Self.struck(report, schedule),
               !(struckBySignature[failure.signature] ?? []).contains(step) {
                struckBySignature[failure.signature, default: []].append(step)
            }
        }
    }

    /// What a trap or a hang struck: the launch, or the action by its name (its arguments
    /// left out: the same action, whatever it was given).
    static func struck(_ report: CaseReport, _ schedule: HuntSchedule) -> String? {
        guard let number = report.steps.last?.index, schedule.steps.indices.contains(number - 1) else { return report.steps.last?.label }
        switch schedule.steps[number - 1] {
        case .launch: return "launch"
        case let .action(name, _, _): return name
        default: return report.steps.last?.label
        }
    }

    /// The summary the report carries.
    package func summary(shard: String?) -> HuntSummary {
        HuntSummary(seed: seed, schedules: schedules, bitten: bitten, idle: idle, failedSchedules: failedSchedules, errored: errored,
                    firstError: firstError, points: surface?.points ?? [], findings: findings, shard: shard,
                    strategy: strategy.rawValue, corpus: corpus, firstFailureMs: firstFailureMs)
    }
}
