/// What one network fault decides for one direction of one connection, chunk by
/// chunk, as toxiproxy's `Toxic.Pipe` does, but as values: the proxy asks, then
/// writes, waits, closes or resets as told. One instance per connection and
/// direction, used from one thread (the connection's event loop).
package protocol NetworkToxic: Sendable {
    /// What happens as soon as the fault applies to the connection (when it is
    /// accepted, or at once when it is already open): nothing, or its end.
    mutating func atStart() -> NetworkEnding?
    /// What to do with `count` bytes just read from the sending side.
    mutating func plan(_ count: Int) -> ChunkPlan
    /// How long the proxy holds back a close from the sending side.
    var closeDelay: Duration { get }
    /// True when a close from the sending side is lost, like its bytes (a black
    /// hole): the other side hears of it only once the fault is cleared.
    var swallowsClose: Bool { get }
}

extension NetworkToxic {
    package mutating func atStart() -> NetworkEnding? { nil }
    package var closeDelay: Duration { .zero }
    package var swallowsClose: Bool { false }
}

/// How a connection ends when a fault ends it.
package enum NetworkEnding: Equatable, Sendable {
    /// A plain close (FIN), after a delay.
    case close(after: Duration)
    /// A reset (SO_LINGER 0, then close: the peer reads ECONNRESET), after a delay.
    case reset(after: Duration)
}

/// What to do with the bytes of one read: write them as these pieces, each after its
/// own wait, in order; then, maybe, end the connection. No pieces and no ending is a
/// black hole.
package struct ChunkPlan: Equatable, Sendable {
    package struct Piece: Equatable, Sendable {
        package var count: Int
        /// The wait before this piece is written, after the previous one.
        package var delay: Duration

        package init(count: Int, delay: Duration = .zero) {
            self.count = count
            self.delay = delay
        }
    }

    package var pieces: [Piece]
    package var ending: NetworkEnding?

    package init(pieces: [Piece], ending: NetworkEnding? = nil) {
        self.pieces = pieces
        self.ending = ending
    }

    /// All the bytes, after `delay`.
    package static func forward(_ count: Int, after delay: Duration = .zero) -> ChunkPlan {
        ChunkPlan(pieces: count > 0 ? [Piece(count: count, delay: delay)] : [])
    }

    /// Nothing is written; the connection stays open.
    package static let drop = ChunkPlan(pieces: [])

    /// Bytes written by this plan.
    package var byteCount: Int { pieces.reduce(0) { $0 + $1.count } }
}

/// Several toxics on one direction, in the order they were armed: each piece the
/// first one lets out goes through the next (toxiproxy chains its toxics the same way).
package enum NetworkPipeline {
    package static func plan(_ count: Int, through toxics: inout [any NetworkToxic]) -> ChunkPlan {
        var plan = ChunkPlan.forward(count)
        for index in toxics.indices {
            var next = ChunkPlan(pieces: [])
            for piece in plan.pieces {
                var sub = toxics[index].plan(piece.count)
                if !sub.pieces.isEmpty { sub.pieces[0].delay += piece.delay }
                next.pieces += sub.pieces
                if let ending = sub.ending {
                    next.ending = ending
                    break
                }
            }
            next.ending = next.ending ?? plan.ending
            plan = next
            if plan.ending != nil, plan.pieces.isEmpty { break }
        }
        return plan
    }
}
