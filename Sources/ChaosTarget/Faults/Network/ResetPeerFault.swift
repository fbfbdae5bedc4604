/// The connection is reset: the peer reads "connection reset by peer" (ECONNRESET).
///
/// ```yaml
/// - fault: reset-peer
///   after-bytes: 0         # optional: once this many bytes have passed this way
///   timeout: 100ms         # optional: this long after the fault applies (toxiproxy's)
///   direction: downstream  # upstream | downstream | both (default downstream)
/// ```
///
/// Without `after-bytes` the connection is reset as soon as the fault applies to it
/// (after `timeout`, default at once), before any byte passes. With `after-bytes: N`
/// the first N bytes in that direction pass and the reset comes with the next
/// byte: `after-bytes: 0, direction: downstream` lets a request reach the remote and
/// resets the connection when the answer starts, so the remote did the work and the
/// app never heard of it. The proxy sets SO_LINGER to 0 and closes both sides.
package struct ResetPeerFault: NetworkFault {
    package static let kind = "reset-peer"
    package static let family = FaultFamily.network
    package static let summary = "Reset connections (ECONNRESET), at once or after some bytes."
    package static let example = """
        - fault: reset-peer
          after-bytes: 0
          direction: downstream
        """
    package static let parameterKeys = ["after-bytes", "timeout", "direction"]
    package static let acceptsTrigger = true

    package var afterBytes: Int?
    package var timeout: Duration
    package var direction: NetworkDirection

    package init(afterBytes: Int? = nil, timeout: Duration = .zero, direction: NetworkDirection = .downstream) {
        self.afterBytes = afterBytes
        self.timeout = timeout
        self.direction = direction
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        afterBytes = try parameters.int("after-bytes", in: 0...1_000_000_000)
        timeout = try parameters.duration("timeout") ?? .zero
        direction = try NetworkDirection.read(parameters, default: .downstream)
        if afterBytes != nil, timeout != .zero {
            throw parameters.error("give 'after-bytes' or 'timeout', not both: a reset happens once", at: "timeout")
        }
    }

    package func toxic(seed: UInt64) -> any NetworkToxic {
        Reset(remaining: afterBytes, timeout: timeout)
    }

    package var label: String {
        var text = Self.kind
        if let afterBytes { text += " after \(afterBytes) bytes" }
        if timeout != .zero { text += " after \(ScenarioDuration.format(timeout))" }
        return text + direction.suffix(default: .downstream)
    }

    struct Reset: NetworkToxic {
        /// Bytes still let through; nil: reset at start.
        var remaining: Int?
        let timeout: Duration

        mutating func atStart() -> NetworkEnding? {
            remaining == nil ? .reset(after: timeout) : nil
        }

        mutating func plan(_ count: Int) -> ChunkPlan {
            guard let left = remaining else { return ChunkPlan(pieces: [], ending: .reset(after: .zero)) }
            let passed = min(left, count)
            remaining = left - passed
            // The reset comes with the first byte past the limit.
            let ending: NetworkEnding? = count > passed ? .reset(after: .zero) : nil
            return ChunkPlan(pieces: passed > 0 ? [.init(count: passed)] : [], ending: ending)
        }
    }
}

extension ResetPeerFault: HuntedFault {
    package static let huntGroup = HuntGroup.network
    package static let huntWeight = 1

    /// The answer's first byte reset: the remote did the work, the app never heard.
    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("after-bytes", .int(0)), HuntKey("direction", .string(NetworkDirection.downstream.rawValue))] + draws.trigger()
    }
}
