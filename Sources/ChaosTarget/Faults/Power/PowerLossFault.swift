/// The machine loses power. Writes the OS had not synced are dropped, kept or torn (per
/// sector, seeded), and the app dies on the spot: now, or at a later write, sync or
/// fault point of the running app (of the next launch, when the app is down).
///
/// ```yaml
/// - fault: power-loss
///   mode: torn               # drop | keep | torn (default drop)
///   after-writes: 12         # or at-sync: N, at-point: store/favorites/save; default now
/// ```
///
/// The step keyword `- power-loss: torn` is the same fault, written short. The cut is
/// made in the app's process, below its SQLite (the fault VFS) or at its file calls
/// (the libc seam); ``PowerLossOrder`` is what the worker is sent.
package struct PowerLossFault: PowerFault {
    package static let kind = "power-loss"
    package static let family = FaultFamily.power
    package static let summary = "Cut the power now or at a later write, sync or point: unsynced writes dropped, kept or torn."
    package static let example = """
        - fault: power-loss
          mode: torn
          after-writes: 12
        """
    package static let parameterKeys = ["mode", "at-sync", "after-writes", "at-point"]
    /// Its moment is its own (`at-sync`, `after-writes`, `at-point`): it happens once.
    package static let acceptsTrigger = false

    /// What the cut does with the writes not yet synced.
    package typealias Mode = PowerLoss.Mode

    /// When the power goes out.
    package enum Moment: Sendable, Equatable {
        case now
        case atSync(Int)
        case afterWrites(Int)
        case atPoint(String)
    }

    package var mode: Mode
    package var moment: Moment
    /// The seed of a torn cut's choices; nil: derived from the case seed and the step.
    /// A crash sweep sets it, to try one cut point with several seeds.
    package var seed: UInt64?
    /// Images a crash sweep takes in the same run (``PowerLossImage``); never written in a scenario.
    package var images: [PowerLossImage]?

    package init(mode: Mode = .drop, moment: Moment = .now, seed: UInt64? = nil) {
        self.mode = mode
        self.moment = moment
        self.seed = seed
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        self.init()
        if let written = try parameters.oneOf("mode", Mode.allCases.map(\.rawValue)) { mode = Mode(rawValue: written) ?? .drop }
        let moments = ["at-sync", "after-writes", "at-point"].filter { parameters.contains($0) }
        if moments.count > 1 {
            throw parameters.error("a power loss happens once: give one of at-sync, after-writes, at-point (found \(moments.joined(separator: " and ")))",
                                   at: moments[1])
        }
        if let count = try parameters.int("at-sync", in: 1...1_000_000) { moment = .atSync(count) }
        if let count = try parameters.int("after-writes", in: 1...1_000_000) { moment = .afterWrites(count) }
        if let point = try parameters.string("at-point") {
            guard PointPath.isValid(point), !point.hasSuffix("*") else {
                throw parameters.error("'at-point' needs a fault point path like store/favorites/save, found '\(point)'", at: "at-point")
            }
            moment = .atPoint(point)
        }
    }

    /// True when the power goes out later, at a write, a sync or a point.
    package var isDeferred: Bool { moment != .now }

    package var tearsWrites: Bool { mode == .torn }

    /// `power-loss torn after write 12`.
    package var label: String {
        let when = switch moment {
        case .now: "now"
        case let .atSync(count): "at sync \(count)"
        case let .afterWrites(count): "after write \(count)"
        case let .atPoint(point): "at \(point)"
        }
        return "\(Self.kind) \(mode.rawValue) \(when)"
    }

    /// The order the worker is sent, its torn choices drawn from ``seed`` or else `caseSeed`.
    package func order(caseSeed: UInt64) -> PowerLossOrder {
        let seed = seed ?? caseSeed
        var order = switch moment {
        case .now: PowerLossOrder(mode: mode, seed: seed)
        case let .atSync(count): PowerLossOrder(mode: mode, atSync: count, seed: seed)
        case let .afterWrites(count): PowerLossOrder(mode: mode, afterWrites: count, seed: seed)
        case let .atPoint(point): PowerLossOrder(mode: mode, atPoint: point, seed: seed)
        }
        order.images = images
        return order
    }
}
