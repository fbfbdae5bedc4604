/// What evidence a scenario's expectations need gathered once its steps are done: the
/// app relaunched and asked, its data read after a restart, the store checked.
extension Scenario {
    /// Whether an expectation asks the app itself (a probe, its data, what it surfaced).
    var needsApp: Bool {
        expectations.contains { expectation in
            switch expectation.kind {
            case .surfaced, .state, .preserved, .noSilentLoss, .integrityIfUsed, .recordsAtLeast, .privateLogs, .liveAfterHealing, .claimsHold: true
            default: false
            }
        }
    }

    /// Whether an expectation judges the data the app keeps after a restart.
    var needsFinalSnapshot: Bool {
        expectations.contains { expectation in
            switch expectation.kind {
            case .preserved, .noSilentLoss, .recordsAtLeast, .privateLogs: true
            default: false
            }
        }
    }

    /// Whether every fault but file damage and the power was cleared before the last
    /// launch: a fault armed before it (in the app or on its network and clock) had a
    /// `clear: all` or a clear of its kind after it. What the app meets at that launch is
    /// what it can heal from (`live-after-healing`).
    var healsBeforeLastLaunch: Bool {
        guard let last = steps.lastIndex(where: { $0.action == .launch }) else { return false }
        var standing: [String] = []
        for step in steps[..<last] {
            switch step.action {
            case let .fault(fault) where ![.file, .power].contains(fault.fault.family): standing.append(fault.fault.kind)
            case .clear(.all): standing.removeAll()
            case let .clear(.kind(kind)): standing.removeAll { $0 == kind }
            default: break
            }
        }
        return standing.isEmpty
    }

    /// Whether an expectation checks the store with `PRAGMA integrity_check`.
    var needsIntegrity: Bool {
        expectations.contains { $0.kind == .integrity || $0.kind == .integrityIfUsed }
    }

    /// `recovered-within`'s bound: how long a read that fails while the app gets over a
    /// cleared fault may be asked again. Nil when the scenario has none.
    var recoveryBound: Duration? {
        expectations.lazy.compactMap { expectation -> Duration? in
            if case let .recoveredWithin(bound) = expectation.kind { return bound }
            return nil
        }.first
    }

    /// The target options of every launch: the scenario's, then the run's `overrides`.
    func targetOptions(overriddenBy overrides: [String: String]) -> [String: String] {
        options.merging(overrides) { _, new in new }
    }
}
