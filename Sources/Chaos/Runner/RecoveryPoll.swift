/// Recovery as users mean it: after a fault is cleared, an app that backs off before it
/// tries its remote again (as the seeds ask: exponential backoff, then recover) fails
/// the first read or two and then answers. The read is asked again — at short, growing
/// pauses — until it answers or `bound` has passed since the recovery window opened (the
/// clearing, or a launch with nothing armed); a read already asked when the bound passes
/// is waited for, so an app that answers after 18 s is measured at 18 s.
struct RecoveryPoll {
    let bound: Duration
    private(set) var failures = 0
    private var pause: Duration = .milliseconds(50)

    init(bound: Duration) {
        self.bound = bound
    }

    /// The pause before the next try, or nil when the bound has passed since `since`.
    mutating func nextPause(since: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> Duration? {
        guard let since else { return nil }
        let left = since + bound - now
        guard left > .zero else { return nil }
        defer { pause = min(pause * 2, .milliseconds(400)) }
        return min(pause, left)
    }

    /// One more try failed.
    mutating func failed() {
        failures += 1
    }

    /// The step's note: how many tries failed before it answered (or it never did).
    var note: String {
        "asked \(failures + 1) times while the app recovered"
    }

    /// Why recovery was not measured: the read never answered within the bound.
    func missing(after what: String?, last: String?) -> String {
        "the read failed \(failures + 1) times in the \(ScenarioDuration.format(bound)) after \(what ?? "the fault")"
            + (last.map { " (the last: \($0))" } ?? "")
    }
}
