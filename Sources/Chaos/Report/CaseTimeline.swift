import ChaosTarget

/// A case's steps, injections, trap and recovery on one time axis, in the
/// order a reader should meet them. What ``HTMLReportWriter`` draws.
struct CaseTimeline: Equatable {
    enum Event: Equatable {
        case step(StepRecord)
        case injection(InjectionRecord)
        /// A record the app logged (swift-log).
        case log(LogEntry)
        case trap(TrapRecord)
        /// The end of the recovery window: the first successful read.
        case recovered(durationMs: Int)
    }

    struct Entry: Equatable {
        var atMs: Int
        var event: Event
    }

    /// The length of the axis: the case duration, or the last thing on it if
    /// that is later; never 0, so positions can be divided by it.
    var spanMs: Int
    /// Everything, sorted by time; at equal times, in the order steps,
    /// logs, injections, trap, recovery (a step that trapped comes before its trap).
    var entries: [Entry]
    /// Where the recovery window starts, when the case measured one.
    var recoveryStartMs: Int?
    /// Where the trap is drawn, when there was one.
    var trapAtMs: Int?

    init(_ report: CaseReport) {
        let trapAtMs = report.trap.map { _ in Self.trapTime(report) }
        let recoveryStartMs = report.recoveryMs == nil ? nil : report.recoveryStartMs
        var entries: [(Entry, rank: Int)] = []
        for step in report.steps {
            entries.append((Entry(atMs: step.startMs, event: .step(step)), 0))
        }
        for entry in report.logs ?? [] {
            entries.append((Entry(atMs: entry.atMs, event: .log(entry)), 1))
        }
        for injection in report.injections {
            entries.append((Entry(atMs: injection.atMs, event: .injection(injection)), 2))
        }
        if let trap = report.trap, let trapAtMs {
            entries.append((Entry(atMs: trapAtMs, event: .trap(trap)), 3))
        }
        if let recoveryMs = report.recoveryMs, let recoveryStartMs {
            entries.append((Entry(atMs: recoveryStartMs + recoveryMs, event: .recovered(durationMs: recoveryMs)), 4))
        }
        // Sorting by (time, rank, original position) keeps it deterministic.
        let sorted = entries.enumerated().sorted { lhs, rhs in
            (lhs.element.0.atMs, lhs.element.rank, lhs.offset) < (rhs.element.0.atMs, rhs.element.rank, rhs.offset)
        }
        self.entries = sorted.map(\.element.0)
        self.recoveryStartMs = recoveryStartMs
        self.trapAtMs = trapAtMs
        let lastEnd = ([report.durationMs]
            + report.steps.map { $0.startMs + $0.durationMs }
            + self.entries.map(\.atMs)).max() ?? 0
        self.spanMs = max(lastEnd, 1)
    }

    /// The end of the first step that trapped; failing that, the end of the
    /// last step; failing that, the end of the case.
    static func trapTime(_ report: CaseReport) -> Int {
        if let step = report.steps.first(where: { $0.outcome == .trapped }) {
            return step.startMs + step.durationMs
        }
        if let step = report.steps.last {
            return step.startMs + step.durationMs
        }
        return report.durationMs
    }
}
