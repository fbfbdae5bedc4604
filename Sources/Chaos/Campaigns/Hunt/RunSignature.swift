import ChaosTarget

/// What one schedule's run reached, as a set of small features read from its report's
/// values (never its sentences): a guided hunt keeps a schedule that reached something
/// no earlier run did (``HuntCorpus``), and mutates it, as AFL keeps an input that took
/// a new branch. The features stand for paths through the app's error handling, which
/// the target exposes no branch coverage of: the fault points its code reached, the
/// calls it made to its files under the faults armed at that moment and what they
/// answered, what it logged, the mode it reported at each launch, how each step went,
/// and how the case ended.
///
/// ```
/// call(write store.sqlite-wal → SQLITE_IOERR_WRITE ×2-3 under io-error)
/// log(error "Save failed: SQLite error 10: disk I/O error")
/// mode(in-memory)  outcome(launch: ok)  trap(LegacyStore.swift:18)  failed(no-silent-loss)
/// ```
struct RunSignature: Equatable {
    enum Feature: Hashable, Sendable {
        /// A fault point the app's code hit (counted while the guided hunt runs).
        case point(String)
        /// A seam call at one step: what, on which file, what it answered, about how
        /// many times, under the kinds of faults armed then (sorted).
        case call(op: StorageCall.Operation, file: String, result: String, count: CountBucket, armed: [String])
        /// An errno or SQLite result code a call answered, wherever it came.
        case code(String)
        /// A record the app logged: its level, its message with paths cut to file names
        /// and numbers made `N` (``TrapErrorKind``): the same record, whatever it counted.
        case log(level: String, message: String)
        /// The storage mode a launch reported.
        case mode(String)
        /// How a step of one kind went: `launch`, an action's name, a fault's kind…
        case outcome(step: String, StepOutcome)
        /// A fault that fired.
        case fired(String)
        /// The case ended in a trap at this site (or with this signal, when no site is named).
        case trap(String)
        /// The app hung: at a launch (nil) or at an action.
        case hang(during: String?)
        /// The worker ended by itself (`exited(1)`).
        case exit(termination: String)
        /// An expectation of the oracle that failed.
        case failed(String)
    }

    /// How many times the same call came at one step: 1, 2–3, or 4 and more — a loop
    /// that retries is new; the tenth write of it is not.
    enum CountBucket: Hashable, Sendable {
        case one, few, many

        init(_ count: Int) {
            self = count <= 1 ? .one : count <= 3 ? .few : .many
        }
    }

    var features: Set<Feature>

    init(features: Set<Feature>) {
        self.features = features
    }

    /// The signature of `report`, the case of a schedule of `steps`.
    init(report: CaseReport, steps: [WrittenStep]) {
        var features = Set((report.pointsReached ?? []).map(Feature.point))
        let armed = Self.armed(along: steps)
        for record in report.steps {
            let position = record.index - 1
            let written = steps.indices.contains(position) ? steps[position] : nil
            let tags = steps.indices.contains(position) ? armed[position] : armed.last ?? []
            for call in record.calls ?? [] {
                features.insert(.call(op: call.op, file: TrapErrorKind.numbersMasked(call.file), result: call.result,
                                      count: CountBucket(call.count), armed: tags))
                if call.failed { features.insert(.code(call.result)) }
            }
            if let mode = record.mode { features.insert(.mode(mode)) }
            features.insert(.outcome(step: written.map(Self.kind) ?? "relaunch", record.outcome))
        }
        for entry in report.logs ?? [] {
            features.insert(.log(level: entry.level, message: TrapErrorKind.of(entry.message)))
        }
        for injection in report.injections { features.insert(.fired(injection.kind)) }
        if let trap = report.trap { features.insert(.trap(trap.site ?? trap.signalName)) }
        for expectation in report.expectations where !expectation.passed {
            features.insert(.failed(expectation.kind))
            switch expectation.end {
            case let .hung(hang)?: features.insert(.hang(during: hang.during))
            case .caseTimedOut?: features.insert(.hang(during: nil))
            case let .exited(termination, _)?: features.insert(.exit(termination: termination))
            case .stayedAfterStop?, nil: break
            }
        }
        self.features = features
    }

    /// A step's kind, as its outcome is told apart: `launch`, `stop`, an action's name,
    /// a fault's kind, `clear`, `power-loss`.
    static func kind(of step: WrittenStep) -> String {
        switch step {
        case .launch: "launch"
        case .stop: "stop"
        case .kill: "kill"
        case let .action(name, _, _): name
        case let .fault(kind, _): kind
        case .clear: "clear"
        case .powerLoss: "power-loss"
        case .checkpoint: "checkpoint"
        case .wait: "wait"
        }
    }

    /// The kinds of the faults armed at each step, the step's own included: a fault
    /// stands until it is cleared; a cut, and damage done to a file, until the launch
    /// after them has run — what the app met when it came back.
    static func armed(along steps: [WrittenStep]) -> [[String]] {
        var standing: [String] = []
        var untilLaunch: [String] = []
        var armed: [[String]] = []
        for step in steps {
            switch step {
            case let .fault(kind, _) where FaultCatalog.kind(named: kind)?.family.stands ?? true: standing.append(kind)
            case let .fault(kind, _): untilLaunch.append(kind)
            case .powerLoss: untilLaunch.append("power-loss")
            case let .clear(scope): standing.removeAll { scope == "all" || $0 == scope }
            default: break
            }
            armed.append(Array(Set(standing + untilLaunch)).sorted())
            if step == .launch { untilLaunch = [] }
        }
        return armed
    }
}
