/// The link is narrow: bytes pass at most at a rate.
///
/// ```yaml
/// - fault: bandwidth
///   rate: 10KB/s           # B/s, KB/s or MB/s (1 KB = 1000 bytes, as toxiproxy)
///   direction: downstream  # upstream | downstream | both (default downstream)
/// ```
///
/// Each chunk is written in slices of a tenth of a second's worth of bytes, each
/// after the time it takes at the rate (toxiproxy's `bandwidth` does the same).
package struct BandwidthFault: NetworkFault {
    package static let kind = "bandwidth"
    package static let family = FaultFamily.network
    package static let summary = "Throttle the bytes to a rate, such as 10KB/s."
    package static let example = """
        - fault: bandwidth
          rate: 10KB/s
        """
    package static let parameterKeys = ["rate", "direction"]
    package static let acceptsTrigger = true

    /// Bytes per second.
    package var bytesPerSecond: Int
    package var direction: NetworkDirection

    package init(bytesPerSecond: Int, direction: NetworkDirection = .downstream) {
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.direction = direction
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        let text = try parameters.requiredString("rate")
        guard let rate = Self.parseRate(text) else {
            throw parameters.error("'rate' must be a positive rate like 500B/s, 10KB/s or 2MB/s, found '\(text)'", at: "rate")
        }
        bytesPerSecond = rate
        direction = try NetworkDirection.read(parameters, default: .downstream)
    }

    /// `10KB/s` → 10000. Units B/s, KB/s, MB/s; a whole number before them.
    package static func parseRate(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces
        let units: [(String, Int)] = [("MB/s", 1_000_000), ("KB/s", 1_000), ("B/s", 1)]
        for (unit, scale) in units where trimmed.hasSuffix(unit) {
            let number = trimmed.dropLast(unit.count).trimmingSpaces
            guard let value = Int(number), value > 0, value <= 1_000_000_000 / scale else { return nil }
            return value * scale
        }
        return nil
    }

    package func toxic(seed: UInt64) -> any NetworkToxic { Throttle(bytesPerSecond: bytesPerSecond) }

    package var label: String { "\(Self.kind) \(bytesPerSecond) B/s" + direction.suffix(default: .downstream) }

    struct Throttle: NetworkToxic {
        let bytesPerSecond: Int

        mutating func plan(_ count: Int) -> ChunkPlan {
            let slice = max(1, bytesPerSecond / 10)
            var pieces: [ChunkPlan.Piece] = []
            var left = count
            while left > 0 {
                let size = min(slice, left)
                pieces.append(.init(count: size, delay: .nanoseconds(Int64(size) * 1_000_000_000 / Int64(bytesPerSecond))))
                left -= size
            }
            return ChunkPlan(pieces: pieces)
        }
    }
}
