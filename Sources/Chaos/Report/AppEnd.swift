import ChaosTarget

/// How the app ended when it did not end the way a step asked (a trap has its own
/// ``TrapRecord``): it hung and was killed, it exited on its own, it would not stop, or
/// the case ran out of time. What a verdict, a hunt's grouping and a sweep's tally read;
/// ``sentence`` is its one rendering, the words of the report.
///
/// ```json
/// "end" : { "hung" : { "during" : "notes.add", "waitedMs" : 5012, "endedBy" : "case-timeout", "seen" : null } }
/// ```
package enum AppEnd: Codable, Sendable, Equatable {
    /// No answer before a bound, and the worker's processes were killed.
    case hung(Hang)
    /// The worker ended by itself during a request (`exited(1)`, `signaled(9)`).
    case exited(termination: String, during: String)
    /// Asked to stop, the worker did not exit and was killed.
    case stayedAfterStop
    /// The case reached its timeout between two steps.
    case caseTimedOut(timeout: String)
    /// Suspended (a `suspend` step) while holding a lock on a file of its shared
    /// container, the app was killed as iOS kills it (0xdead10cc): `file` as the target
    /// names it (`store`), `lock` what the process held (`a write lock on app.sqlite-shm`).
    case terminatedBySystem(file: String, lock: String)

    /// A hang: which request it struck (nil: a launch), how long Chaos waited, which
    /// bound ended the wait, and what the worker was seen waiting on, if anything.
    package struct Hang: Codable, Sendable, Equatable {
        package enum Bound: String, Codable, Sendable {
            /// The bound on one step a hunt learnt from a plain run.
            case stepBound = "step-bound"
            case caseTimeout = "case-timeout"
        }

        package var during: String?
        package var waitedMs: Int?
        package var endedBy: Bound
        package var seen: String?

        package init(during: String?, waitedMs: Int? = nil, endedBy: Bound = .caseTimeout, seen: String? = nil) {
            self.during = during
            self.waitedMs = waitedMs
            self.endedBy = endedBy
            self.seen = seen
        }
    }

    /// A hang by any bound: no answer came.
    package var isHang: Bool {
        switch self {
        case .hung, .caseTimedOut: true
        case .exited, .stayedAfterStop, .terminatedBySystem: false
        }
    }

    /// Whether the evidence an expectation needs after the end is missing because of it
    /// (``EvidenceGap/appEnd``): a hang or an exit; a worker killed after its stop had
    /// already answered every request.
    var leavesEvidenceGap: AppEndKind? {
        switch self {
        case .hung: .hung
        case .exited, .terminatedBySystem: .ended
        case .stayedAfterStop, .caseTimedOut: nil
        }
    }

    /// The report's words: `hung: no answer to 'notes.add' in 5.0 s, until the case's
    /// timeout; the worker's processes were killed`.
    package var sentence: String {
        switch self {
        case let .hung(hang): "hung: " + hang.words + "; " + (hang.during == nil ? "its processes were killed" : "the worker's processes were killed")
        case let .exited(termination, during): "the worker ended unexpectedly during '\(during)' (\(termination))"
        case .stayedAfterStop: "the worker did not exit after stop; killed"
        case let .caseTimedOut(timeout): "the case timed out after \(timeout)"
        case let .terminatedBySystem(file, lock): "terminated by the system (0xdead10cc): suspended holding a lock on \(file) (\(lock))"
        }
    }

    /// The same end whichever request it struck: what tells one end from another.
    package var sentenceWithoutTheStep: String {
        switch self {
        case let .exited(termination, _): "the worker ended unexpectedly (\(termination))"
        default: sentence
        }
    }
}

extension AppEnd.Hang {
    var words: String {
        guard let during else { return "\(seen ?? "no ready line") before the case timeout" }
        let waited = ScenarioDuration.seconds(.milliseconds(waitedMs ?? 0))
        let ender = endedBy == .stepBound ? "the bound on one step learnt from a plain run" : "the case's timeout"
        return seen.map { "\($0) during '\(during)', \(waited) s until \(ender)" } ?? "no answer to '\(during)' in \(waited) s, until \(ender)"
    }
}

/// Which end of the app kept evidence from being gathered.
package enum AppEndKind: String, Codable, Sendable {
    case trapped, hung, ended
}

/// Why an expectation could not be judged on the evidence it needs: Chaos's gap, not the
/// app's failure. Typed beside the expectation's words, so that what reads it (a case's
/// judgement, a hunt, a sweep's tally) never reads the words.
///
/// ```json
/// "gap" : { "finalSnapshot" : true, "appEnd" : "trapped" }
/// ```
package struct EvidenceGap: Codable, Sendable, Equatable {
    /// The final snapshot of the app's data was not taken: there is no data to judge.
    package var finalSnapshot: Bool
    /// The app's end that kept the evidence from being gathered; nil when it was
    /// something else (the app answered, but could not read its data).
    package var appEnd: AppEndKind?

    package init(finalSnapshot: Bool = false, appEnd: AppEndKind? = nil) {
        self.finalSnapshot = finalSnapshot
        self.appEnd = appEnd
    }
}
