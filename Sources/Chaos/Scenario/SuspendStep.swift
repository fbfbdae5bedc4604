import ChaosTarget

/// `suspend`: the app is told it goes to the background (``ChaosTarget/willSuspend()``),
/// given its notice, then stopped (SIGSTOP) as iOS suspends it. If it then holds a lock on
/// a file of its shared container, it is killed as iOS kills it (0xdead10cc).
///
/// ```yaml
/// - suspend                 # now, between two steps
/// - suspend: while-saving   # at the app's next write lock on a shared file, in a later step
///   notice: 2s
/// ```
package struct SuspendStep: Sendable, Equatable {
    package enum Moment: String, Sendable, CaseIterable {
        /// Between two steps; the app stays suspended until `resume`.
        case now
        /// In the middle of the next save: when the app takes a write lock on a file of its
        /// shared container. Not killed, it is continued at once and the save goes on.
        case whileSaving = "while-saving"
    }

    package var moment: Moment = .now
    /// How long the app runs on after it was told, before it is stopped.
    package var notice: Duration = .zero

    package init(moment: Moment = .now, notice: Duration = .zero) {
        self.moment = moment
        self.notice = notice
    }

    package static let keys = ["suspend", "notice"]
    /// The longest notice: iOS gives a background task about 30 s.
    package static let longestNotice: Duration = .seconds(30)

    /// `suspend`, `suspend while-saving (notice 2s)`.
    package var label: String {
        var text = moment == .now ? "suspend" : "suspend \(moment.rawValue)"
        if notice > .zero { text += " (notice \(ScenarioDuration.format(notice)))" }
        return text
    }
}
