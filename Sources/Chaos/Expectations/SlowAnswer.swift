/// The longest one request to the app took (a launch, an action): what
/// `recovered-within` and `responsive-within` hold against their bound, so an app that
/// hangs for seconds in the middle of a case is not hidden by a quick recovery later.
package struct SlowAnswer: Sendable, Equatable {
    package var ms: Int
    /// What was asked, as a sentence names it: `the launch`, `'visits.list'`.
    package var what: String
    /// The step it was answered in (`step-7`).
    package var step: String?

    package init(ms: Int, what: String, step: String? = nil) {
        self.ms = ms
        self.what = what
        self.step = step
    }

    /// Keeps the slower of the two.
    package static func slower(_ old: SlowAnswer?, _ new: SlowAnswer) -> SlowAnswer {
        guard let old, old.ms >= new.ms else { return new }
        return old
    }

    /// "'visits.list' took 9978 ms (step-8)".
    package var text: String {
        "\(what) took \(ms) ms" + (step.map { " (\($0))" } ?? "")
    }
}
