/// Bytes arrive in small pieces, with a pause between them: a peer that must cope
/// with short reads (a message split across many packets).
///
/// ```yaml
/// - fault: slicer
///   average-size: 16       # bytes per slice (default 16)
///   size-variation: 8      # plus or minus up to this, seeded (default 0; below average-size)
///   delay: 10ms            # pause before each slice after the first (default 10ms)
///   direction: downstream  # upstream | downstream | both (default downstream)
/// ```
package struct SlicerFault: NetworkFault {
    package static let kind = "slicer"
    package static let family = FaultFamily.network
    package static let summary = "Split the bytes into small slices with a pause between them."
    package static let example = """
        - fault: slicer
          average-size: 16
          size-variation: 8
          delay: 10ms
        """
    package static let parameterKeys = ["average-size", "size-variation", "delay", "direction"]
    package static let acceptsTrigger = true

    package var averageSize: Int
    package var sizeVariation: Int
    package var delay: Duration
    package var direction: NetworkDirection

    package init(averageSize: Int = 16, sizeVariation: Int = 0, delay: Duration = .milliseconds(10),
                direction: NetworkDirection = .downstream) {
        self.averageSize = max(1, averageSize)
        self.sizeVariation = min(max(0, sizeVariation), self.averageSize - 1)
        self.delay = delay
        self.direction = direction
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        averageSize = try parameters.int("average-size", in: 1...1_000_000, default: 16)
        sizeVariation = try parameters.int("size-variation", in: 0...1_000_000, default: 0)
        delay = try parameters.duration("delay") ?? .milliseconds(10)
        direction = try NetworkDirection.read(parameters, default: .downstream)
        guard sizeVariation < averageSize else {
            throw parameters.error("'size-variation' must be below 'average-size' (a slice has at least one byte)", at: "size-variation")
        }
        guard delay <= .seconds(10) else { throw parameters.error("'delay' is at most 10s per slice", at: "delay") }
    }

    package func toxic(seed: UInt64) -> any NetworkToxic {
        Slices(averageSize: averageSize, sizeVariation: sizeVariation, delay: delay, rng: SplitMix64(seed: seed))
    }

    package var label: String {
        let spread = sizeVariation == 0 ? "" : "±\(sizeVariation)"
        return "\(Self.kind) \(averageSize)\(spread) bytes every \(ScenarioDuration.format(delay))"
            + direction.suffix(default: .downstream)
    }

    struct Slices: NetworkToxic {
        let averageSize: Int
        let sizeVariation: Int
        let delay: Duration
        var rng: SplitMix64

        mutating func plan(_ count: Int) -> ChunkPlan {
            var pieces: [ChunkPlan.Piece] = []
            var left = count
            while left > 0 {
                let size = averageSize + (sizeVariation > 0 ? rng.nextInt(in: -sizeVariation...sizeVariation) : 0)
                let slice = min(left, max(1, size))
                pieces.append(.init(count: slice, delay: pieces.isEmpty ? .zero : delay))
                left -= slice
            }
            return ChunkPlan(pieces: pieces)
        }
    }
}
