import Foundation

/// What a sweep's trials are held to.
struct SweepOracle {
    let scenario: Scenario

    /// What every trial is judged on: the scenario's own data expectations when it has
    /// any (`no-silent-loss`, `integrity`, `preserved: acknowledged`: the storage
    /// catalog's), else the store's integrity and every acknowledged write kept; and its
    /// `preserved: CHECKPOINT` for a checkpoint taken after the first run (a migrated
    /// store's records kept across a restart), which a trial's fault in the first run
    /// cannot keep from being taken. The scenario's other expectations describe its one
    /// fault, not every one.
    /// Integrity is `ok-if-used`: a store the app set aside is no longer its data (what
    /// it shows is, and `preserved` judges that), and a target that keeps plain files
    /// has no SQLite store to check (`integrity: ok` would fail it for want of one).
    /// And every trial is held to answering each launch and action within the
    /// scenario's own `responsive-within` bound, else its `recovered-within` (5 s, the
    /// seeds' bound, when it has neither): a trial whose app stops answering is a
    /// deviation, whatever else happened in it. (`store-locked-at-launch` allows a launch
    /// 30 s under a held lock, which SQLite itself waits out for 20; its sweep held
    /// every trial to 5 s and failed them "slow answers".)
    var expectations: [Expectation] {
        let kinds = scenario.expectations.map(\.kind)
        let own = kinds.filter { kind in
            [.noSilentLoss, .integrity, .integrityIfUsed, .preserved(Expectation.acknowledged)].contains(kind)
        }
        let answering = kinds.lazy.compactMap { kind -> Duration? in
            if case let .responsiveWithin(bound) = kind { return bound }
            return nil
        }.first
        let recovering = kinds.lazy.compactMap { kind -> Duration? in
            if case let .recoveredWithin(bound) = kind { return bound }
            return nil
        }.first
        let bound = answering ?? recovering ?? Self.responsiveBound
        let later = checkpointsAfterTheFirstRun
        let kept = kinds.filter { kind in
            if case let .preserved(name) = kind { return later.contains(name) }
            return false
        }
        return (own.isEmpty ? [.integrityIfUsed, .preserved(Expectation.acknowledged)] : own) + kept + [.responsiveWithin(bound)]
    }

    /// The checkpoints the scenario takes from its second launch on: a trial's fault is
    /// in its first run.
    var checkpointsAfterTheFirstRun: Set<String> {
        let steps = scenario.steps
        guard let second = steps.indices.filter({ steps[$0].action == .launch }).dropFirst().first else { return [] }
        return Set(steps[second...].compactMap { step in
            if case let .checkpoint(name) = step.action { return name }
            return nil
        })
    }

    /// How long the seeds let an app take to recover, and so to answer.
    static let responsiveBound: Duration = .seconds(5)

    /// The bound on answering every trial is held to.
    var answeringBound: Duration {
        expectations.lazy.compactMap { kind -> Duration? in
            if case let .responsiveWithin(bound) = kind { return bound }
            return nil
        }.first ?? Self.responsiveBound
    }
}

extension Sweeper {
    /// What every trial is judged on (``SweepOracle``).
    var oracle: [Expectation] { SweepOracle(scenario: scenario).expectations }

    /// This sweep with a bound on one step learnt from its counting run, as a hunt's:
    /// ten times the slowest launch or action it took, at least 6 s, and past the bound
    /// every trial is held to answering within (``oracle``) — so a trial that hangs is
    /// ended as soon as it has failed anyway, not at the case's timeout, and its verdict
    /// is the one it would have had. `chaos explore --trial` runs one trial at the full
    /// timeout: the confirmation of a hang.
    func bounded(by counting: CaseReport) -> Sweeper {
        let slowestMs = counting.steps.map(\.durationMs).max() ?? 0
        let answering = SweepOracle(scenario: scenario).answeringBound
        let learnt = StepBound.learnt(slowestPlainMs: slowestMs)
        var sweep = self
        sweep.plan.stepBound = StepBound(launch: max(learnt.launch, answering + .seconds(1)), action: max(learnt.action, answering + .seconds(1)))
        return sweep
    }
}
