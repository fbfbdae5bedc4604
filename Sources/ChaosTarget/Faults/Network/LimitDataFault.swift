/// The connection is closed once some bytes have passed: a transfer cut short.
///
/// ```yaml
/// - fault: limit-data
///   bytes: 64              # bytes let through, then a close (required)
///   direction: downstream  # upstream | downstream | both (default downstream)
/// ```
///
/// A close, not a reset: the peer sees the stream end early (an HTTP body shorter
/// than its Content-Length). Toxiproxy's `limit_data`.
package struct LimitDataFault: NetworkFault {
    package static let kind = "limit-data"
    package static let family = FaultFamily.network
    package static let summary = "Close the connection once a number of bytes has passed."
    package static let example = """
        - fault: limit-data
          bytes: 64
        """
    package static let parameterKeys = ["bytes", "direction"]
    package static let acceptsTrigger = true

    package var bytes: Int
    package var direction: NetworkDirection

    package init(bytes: Int, direction: NetworkDirection = .downstream) {
        self.bytes = max(0, bytes)
        self.direction = direction
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        guard let bytes = try parameters.int("bytes", in: 0...1_000_000_000) else {
            throw parameters.error("fault 'limit-data' needs 'bytes:' (how many bytes pass before the close)")
        }
        self.bytes = bytes
        direction = try NetworkDirection.read(parameters, default: .downstream)
    }

    package func toxic(seed: UInt64) -> any NetworkToxic { Limit(remaining: bytes) }

    package var label: String { "\(Self.kind) \(bytes) bytes" + direction.suffix(default: .downstream) }

    struct Limit: NetworkToxic {
        var remaining: Int

        mutating func atStart() -> NetworkEnding? {
            remaining == 0 ? .close(after: .zero) : nil
        }

        mutating func plan(_ count: Int) -> ChunkPlan {
            let passed = min(remaining, count)
            remaining -= passed
            return ChunkPlan(pieces: passed > 0 ? [.init(count: passed)] : [],
                             ending: remaining == 0 ? .close(after: .zero) : nil)
        }
    }
}

extension LimitDataFault: HuntedFault {
    package static let huntGroup = HuntGroup.network
    package static let huntWeight = 1

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("bytes", .int(draws.pick([0, 10, 40, 100])))] + draws.trigger()
    }
}
