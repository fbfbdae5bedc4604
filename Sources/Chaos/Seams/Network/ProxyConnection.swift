import NIOCore
import NIOPosix
import ChaosTarget

/// One connection through the fault proxy: the app's socket glued to one of its own
/// to the remote, with the toxics the armed faults chose for it.
///
/// Confined to its event loop: every method runs there (the client and the
/// upstream channel share that loop), so the state needs no lock. The proxy reaches
/// it through `eventLoop.execute`.
///
/// Reads are pulled, never pushed (`autoRead` is off): the next chunk of a direction
/// is read only once the previous one has been written, waits included. That keeps
/// the bytes in order through delays and slices, and lets a slow fault push back on
/// the sender, as a slow link does.
///
/// Unchecked Sendable: confined to its event loop, as said above; other threads only
/// hand it work through `eventLoop.execute`.
final class ProxyConnection: @unchecked Sendable {
    enum Side { case client, server }

    struct Installed {
        let armedID: Int
        var toxic: any NetworkToxic
    }

    let id: Int
    let eventLoop: any EventLoop
    let client: any Channel
    private var server: (any Channel)?
    private var toxics: [NetworkFlow: [Installed]] = [.upstream: [], .downstream: []]
    /// A chunk of this direction is being written (its pieces may be waiting).
    private var busy: Set<NetworkFlow> = []
    /// The sender of this direction has closed; close the other side once idle.
    private var closing: Set<NetworkFlow> = []
    private var ended = false
    private let onEnding: @Sendable (Int, NetworkEnding) -> Void

    init(id: Int, client: any Channel, toxics: [(armedID: Int, flow: NetworkFlow, toxic: any NetworkToxic)],
         onEnding: @escaping @Sendable (Int, NetworkEnding) -> Void) {
        self.id = id
        self.client = client
        self.eventLoop = client.eventLoop
        self.onEnding = onEnding
        for item in toxics { self.toxics[item.flow, default: []].append(Installed(armedID: item.armedID, toxic: item.toxic)) }
    }

    // MARK: - Lifecycle

    /// Connects to the remote, unless a fault ends the connection at once (a refusal
    /// never reaches the remote), then starts pulling bytes both ways.
    func start(upstreamHost: String, upstreamPort: Int) {
        eventLoop.preconditionInEventLoop()
        if let ending = startEndings(), ending == .reset(after: .zero) {
            end(ending)
            return
        }
        ClientBootstrap(group: eventLoop)
            .channelOption(.autoRead, value: false)
            .channelOption(.maxMessagesPerRead, value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProxyGlueHandler(connection: self, side: .server))
                }
            }
            .connect(host: upstreamHost, port: upstreamPort)
            .whenComplete { result in
                switch result {
                case let .success(channel): self.connected(channel)
                case .failure: self.client.close(promise: nil)
                }
            }
    }

    private func connected(_ channel: any Channel) {
        guard !ended, client.isActive else {
            channel.close(promise: nil)
            return
        }
        server = channel
        if let ending = startEndings() { end(ending) }
        guard !ended else { return }
        client.read()
        channel.read()
    }

    /// The earliest ending the installed toxics ask for at start, if any.
    private func startEndings() -> NetworkEnding? {
        var earliest: NetworkEnding?
        for flow in NetworkFlow.allCases {
            for index in toxics[flow, default: []].indices {
                if let ending = toxics[flow]?[index].toxic.atStart() { earliest = Self.earlier(earliest, ending) }
            }
        }
        return earliest
    }

    static func earlier(_ lhs: NetworkEnding?, _ rhs: NetworkEnding) -> NetworkEnding {
        guard let lhs else { return rhs }
        func delay(_ ending: NetworkEnding) -> Duration {
            switch ending { case let .close(after), let .reset(after): after }
        }
        return delay(rhs) < delay(lhs) ? rhs : lhs
    }

    // MARK: - Faults armed or cleared while open

    /// A fault armed while this connection is open applies to it from now on.
    func adopt(_ added: [(armedID: Int, flow: NetworkFlow, toxic: any NetworkToxic)]) {
        eventLoop.preconditionInEventLoop()
        guard !ended else { return }
        var earliest: NetworkEnding?
        for item in added {
            var installed = Installed(armedID: item.armedID, toxic: item.toxic)
            if let ending = installed.toxic.atStart() { earliest = Self.earlier(earliest, ending) }
            toxics[item.flow, default: []].append(installed)
        }
        if let earliest { end(earliest) }
    }

    /// A cleared fault stops acting on this connection (a chunk already planned
    /// finishes as planned).
    func drop(armedIDs: Set<Int>) {
        eventLoop.preconditionInEventLoop()
        for flow in NetworkFlow.allCases {
            toxics[flow]?.removeAll { armedIDs.contains($0.armedID) }
            // A close a black hole swallowed gets through now.
            if closing.contains(flow), !busy.contains(flow) { closeOtherSide(of: flow) }
        }
    }

    // MARK: - Bytes

    func received(_ buffer: ByteBuffer, from side: Side) {
        let flow: NetworkFlow = side == .client ? .upstream : .downstream
        guard !ended, let target = side == .client ? server : client else { return }
        var chain = toxics[flow, default: []].map(\.toxic)
        let plan = NetworkPipeline.plan(buffer.readableBytes, through: &chain)
        if var installed = toxics[flow] {
            for index in installed.indices where index < chain.count { installed[index].toxic = chain[index] }
            toxics[flow] = installed
        }
        busy.insert(flow)
        carry(plan, buffer, flow: flow, to: target, piece: 0, offset: 0)
    }

    /// Writes the plan's pieces one after another, each after its wait; then ends the
    /// connection, or closes the other side if the sender has gone, or reads on.
    private func carry(_ plan: ChunkPlan, _ buffer: ByteBuffer, flow: NetworkFlow, to target: any Channel,
                       piece index: Int, offset: Int) {
        guard !ended else { return }
        guard index < plan.pieces.count else {
            busy.remove(flow)
            if let ending = plan.ending { return end(ending) }
            if closing.contains(flow) { return closeOtherSide(of: flow) }
            (flow == .upstream ? client : server)?.read()
            return
        }
        let piece = plan.pieces[index]
        let write: @Sendable () -> Void = {
            guard !self.ended, let slice = buffer.getSlice(at: buffer.readerIndex + offset, length: piece.count) else { return }
            target.writeAndFlush(slice).whenComplete { _ in
                self.carry(plan, buffer, flow: flow, to: target, piece: index + 1, offset: offset + piece.count)
            }
        }
        if piece.delay > .zero {
            eventLoop.scheduleTask(in: .nanoseconds(piece.delay.wholeNanoseconds)) { write() }
        } else {
            write()
        }
    }

    // MARK: - Closing

    /// One side hung up: the other side is closed once the bytes in flight from it
    /// are through, after the close delay a fault asks for.
    func sideClosed(_ side: Side) {
        guard !ended else { return }
        let flow: NetworkFlow = side == .client ? .upstream : .downstream
        closing.insert(flow)
        if side == .server && server == nil { return }
        if !busy.contains(flow) { closeOtherSide(of: flow) }
    }

    private func closeOtherSide(of flow: NetworkFlow) {
        guard !toxics[flow, default: []].contains(where: \.toxic.swallowsClose) else { return }
        let delay = toxics[flow, default: []].map(\.toxic.closeDelay).max() ?? .zero
        end(.close(after: delay), reported: false)
    }

    /// Ends the whole connection: both sides closed, or reset.
    func end(_ ending: NetworkEnding, reported: Bool = true) {
        guard !ended else { return }
        switch ending {
        case let .close(after) where after > .zero, let .reset(after) where after > .zero:
            eventLoop.scheduleTask(in: .nanoseconds(after.wholeNanoseconds)) {
                switch ending {
                case .close: self.end(.close(after: .zero), reported: reported)
                case .reset: self.end(.reset(after: .zero), reported: reported)
                }
            }
            return
        default:
            break
        }
        ended = true
        if reported { onEnding(id, ending) }
        let channels = [client] + (server.map { [$0] } ?? [])
        for channel in channels {
            if case .reset = ending { Self.reset(channel) } else { channel.close(promise: nil) }
        }
    }

    /// SO_LINGER 0, then close: the kernel sends RST instead of FIN, and the peer
    /// reads ECONNRESET.
    static func reset(_ channel: any Channel) {
        guard let provider = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Closes at once, for the proxy's own stop.
    func shutDown() {
        ended = true
        client.close(promise: nil)
        server?.close(promise: nil)
    }
}

/// Passes what one side reads to its ``ProxyConnection``.
///
/// Unchecked Sendable: a channel handler lives on its channel's event loop, the same
/// loop as its connection; NIO never calls it from another thread.
final class ProxyGlueHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let connection: ProxyConnection
    private let side: ProxyConnection.Side

    init(connection: ProxyConnection, side: ProxyConnection.Side) {
        self.connection = connection
        self.side = side
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.received(unwrapInboundIn(data), from: side)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.sideClosed(side)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset or broken pipe from either peer ends this side; channelInactive follows.
        context.close(promise: nil)
    }
}
