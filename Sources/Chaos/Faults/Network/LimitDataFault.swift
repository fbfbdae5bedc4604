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
public struct LimitDataFault: NetworkFault {
    public static let kind = "limit-data"
    public static let family = FaultFamily.network
    public static let summary = "Close the connection once a number of bytes has passed."
    public static let example = """
        - fault: limit-data
          bytes: 64
        """
    public static let parameterKeys = ["bytes", "direction"]
    public static let acceptsTrigger = true

    public var bytes: Int
    public var direction: NetworkDirection

    public init(bytes: Int, direction: NetworkDirection = .downstream) {
        self.bytes = max(0, bytes)
        self.direction = direction
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        guard let bytes = try parameters.int("bytes", in: 0...1_000_000_000) else {
            throw parameters.error("fault 'limit-data' needs 'bytes:' (how many bytes pass before the close)")
        }
        self.bytes = bytes
        direction = try NetworkDirection.read(parameters, default: .downstream)
    }

    public func toxic(seed: UInt64) -> any NetworkToxic { Limit(remaining: bytes) }

    public var label: String { "\(Self.kind) \(bytes) bytes" + direction.suffix(default: .downstream) }

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
