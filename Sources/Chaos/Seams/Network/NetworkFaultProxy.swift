import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ChaosTarget

/// A TCP fault proxy between the app and its remote, on 127.0.0.1 only: the seam
/// that carries out network faults (toxiproxy's proxy, in SwiftNIO).
///
/// Each accepted connection gets a connection of its own to the remote, and the two
/// are glued both ways (``ProxyConnection``). Which faults act on a connection is
/// decided when it is accepted, or when a fault is armed while it is open: each armed
/// fault's ``TriggerState`` is asked once per connection, in accept order, so the
/// same seed picks the same connections. The faults then decide, chunk by chunk, what
/// the proxy writes, waits for, closes or resets.
///
/// `network-down` with the default trigger closes the listening socket (a connect
/// gets ECONNREFUSED) and resets open connections; clearing it binds the same port
/// again.
///
/// ```swift
/// let proxy = try NetworkFaultProxy.start(upstreamPort: remotePort, group: group)
/// try proxy.arm(LatencyFault(latency: .milliseconds(200)), trigger: Trigger(), seed: 7)
/// try proxy.clear(kind: nil)
/// proxy.stop()
/// ```
package final class NetworkFaultProxy: Sendable {
    package static let host = "127.0.0.1"

    /// The port the proxy listens on (kept across a `network-down` and its clear).
    package let port: Int
    package let upstreamHost: String
    package let upstreamPort: Int
    private let group: any EventLoopGroup
    private let state: NIOLockedValueBox<State>
    /// What the listener calls on accept; emptied at stop, which breaks the cycle.
    private let acceptor: NIOLockedValueBox<NetworkFaultProxy?>

    struct Armed {
        let id: Int
        /// The case's id of the fault (`step-5`), carried by its firings.
        let faultID: String?
        let fault: any NetworkFault
        let trigger: TriggerState
        let seed: UInt64
        /// Connections this fault has been asked about.
        var hits = 0
        var kind: String { type(of: fault).kind }
    }

    struct State {
        var listener: (any Channel)?
        var armed: [Armed] = []
        var nextArmedID = 1
        var connections: [Int: ProxyConnection] = [:]
        var nextConnectionID = 1
        var firings: [NetworkFiring] = []
        /// The kinds of the faults that picked each connection, for the report.
        var picked: [Int: [String]] = [:]
        var stopped = false
    }

    private init(port: Int, upstreamHost: String, upstreamPort: Int, group: any EventLoopGroup, state: NIOLockedValueBox<State>,
                 acceptor: NIOLockedValueBox<NetworkFaultProxy?>) {
        self.port = port
        self.upstreamHost = upstreamHost
        self.upstreamPort = upstreamPort
        self.group = group
        self.state = state
        self.acceptor = acceptor
    }

    /// Starts listening on 127.0.0.1 (`port` 0: a free port) in front of the remote at
    /// `upstreamHost:upstreamPort`. Blocks until bound; call it off the event loops.
    package static func start(upstreamHost: String = host, upstreamPort: Int, group: any EventLoopGroup,
                              port: Int = 0) throws -> NetworkFaultProxy {
        let state = NIOLockedValueBox(State())
        // The listener needs the proxy and the proxy its port: bind through a box.
        let box = NIOLockedValueBox<NetworkFaultProxy?>(nil)
        let listener = try bind(port: port, group: group) { channel in
            guard let proxy = box.withLockedValue({ $0 }) else { return channel.close() }
            return proxy.accepted(channel)
        }
        guard let bound = listener.localAddress?.port else {
            listener.close(promise: nil)
            throw ChaosError.io("the fault proxy has no local port")
        }
        let proxy = NetworkFaultProxy(port: bound, upstreamHost: upstreamHost, upstreamPort: upstreamPort, group: group,
                                      state: state, acceptor: box)
        box.withLockedValue { $0 = proxy }
        state.withLockedValue { $0.listener = listener }
        return proxy
    }

    private static func bind(port: Int, group: any EventLoopGroup,
                             accept: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>) throws -> any Channel {
        try ServerBootstrap(group: group)
            .childChannelOption(.autoRead, value: false)
            // One chunk per read: the next is pulled only when this one is through.
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelInitializer(accept)
            .withBoundSocket(LoopbackListeningSocket.bound(port: port))
            .wait()
    }

    /// Where the app is given to reach its remote.
    package var address: RemoteAddress { RemoteAddress(host: Self.host, port: port) }

    // MARK: - Connections

    private func accepted(_ channel: any Channel) -> EventLoopFuture<Void> {
        let connection: ProxyConnection? = state.withLockedValue { state in
            guard !state.stopped else { return nil }
            let id = state.nextConnectionID
            state.nextConnectionID += 1
            let chosen = Self.choose(forConnection: id, armed: &state.armed, firings: &state.firings)
            state.picked[id, default: []] += Set(chosen.map(\.armedID)).sorted().compactMap { armedID in
                state.armed.first { $0.id == armedID }?.kind
            }
            let connection = ProxyConnection(id: id, client: channel, toxics: chosen) { [weak self] id, ending in
                self?.recordEnding(of: id, ending)
            }
            state.connections[id] = connection
            return connection
        }
        guard let connection else { return channel.close() }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.state.withLockedValue { _ = $0.connections.removeValue(forKey: connection.id) }
        }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ProxyGlueHandler(connection: connection, side: .client))
            connection.start(upstreamHost: self.upstreamHost, upstreamPort: self.upstreamPort)
        }
    }

    /// Asks each armed fault, in the order armed, whether it acts on connection `id`,
    /// and makes the toxics of those that do. Called under the lock.
    private static func choose(forConnection id: Int, armed: inout [Armed], firings: inout [NetworkFiring])
        -> [(armedID: Int, flow: NetworkFlow, toxic: any NetworkToxic)] {
        var chosen: [(armedID: Int, flow: NetworkFlow, toxic: any NetworkToxic)] = []
        for index in armed.indices {
            armed[index].hits += 1
            let fault = armed[index]
            guard fault.trigger.shouldFire(hit: fault.hits) else { continue }
            for flow in fault.fault.direction.flows {
                let seed = SplitMix64.subseed(fault.seed, "connection-\(id)/\(flow.rawValue)")
                chosen.append((fault.id, flow, fault.fault.toxic(seed: seed)))
            }
            firings.append(NetworkFiring(kind: fault.kind, connection: id, faultID: fault.faultID,
                                         detail: "\(fault.fault.label) on connection \(id)"))
        }
        return chosen
    }

    // MARK: - Arming

    /// Arms a fault: it acts on the open connections the trigger picks, at once, and
    /// on the new ones it picks.
    package func arm(_ fault: any NetworkFault, id faultID: String? = nil, trigger: Trigger, seed: UInt64) throws {
        if fault.closesTheListener(trigger) {
            try refuse(fault, id: faultID, seed: seed)
            return
        }
        let adoptions: [(ProxyConnection, [(armedID: Int, flow: NetworkFlow, toxic: any NetworkToxic)])] = state.withLockedValue { state in
            let id = state.nextArmedID
            state.nextArmedID += 1
            state.armed.append(Armed(id: id, faultID: faultID, fault: fault,
                                     trigger: TriggerState(trigger: trigger, seed: seed), seed: seed))
            let lastIndex = state.armed.count - 1
            var adoptions: [(ProxyConnection, [(armedID: Int, flow: NetworkFlow, toxic: any NetworkToxic)])] = []
            for connectionID in state.connections.keys.sorted() {
                guard let connection = state.connections[connectionID] else { continue }
                var single = [state.armed[lastIndex]]
                let chosen = Self.choose(forConnection: connectionID, armed: &single, firings: &state.firings)
                state.armed[lastIndex] = single[0]
                if !chosen.isEmpty {
                    adoptions.append((connection, chosen))
                    state.picked[connectionID, default: []].append(single[0].kind)
                }
            }
            return adoptions
        }
        Self.onTheirLoops(adoptions.map { connection, chosen in (connection, { connection.adopt(chosen) }) })
    }

    /// Runs each piece of work on its connection's event loop and returns once all of
    /// them ran: a step that arms or clears a fault returns when every open connection
    /// carries the change, so the app's next request cannot slip through before it.
    private static func onTheirLoops(_ work: [(ProxyConnection, @Sendable () -> Void)]) {
        let done = work.map { connection, body in connection.eventLoop.submit(body) }
        for future in done { _ = try? future.wait() }
    }

    /// Stops listening and resets the open connections.
    private func refuse(_ fault: any NetworkFault, id faultID: String?, seed: UInt64) throws {
        let (listener, open) = state.withLockedValue { state in
            let id = state.nextArmedID
            state.nextArmedID += 1
            state.armed.append(Armed(id: id, faultID: faultID, fault: fault,
                                     trigger: TriggerState(trigger: Trigger(), seed: seed), seed: seed))
            let listener = state.listener
            state.listener = nil
            state.firings.append(NetworkFiring(kind: type(of: fault).kind, connection: nil, faultID: faultID,
                                               detail: NetworkFiring.refusal(resetting: state.connections.count)))
            return (listener, Array(state.connections.values))
        }
        try listener?.close().wait()
        Self.onTheirLoops(open.map { connection in (connection, { connection.end(.reset(after: .zero), reported: false) }) })
    }

    /// Disarms the faults of `kind` (every fault when nil); returns their labels.
    /// Connections they acted on go back to plain forwarding; a proxy that stopped
    /// listening listens again, on the same port.
    @discardableResult
    package func clear(kind: String?) throws -> [String] {
        let (removed, open, relisten) = state.withLockedValue { state in
            let removed = state.armed.filter { kind == nil || $0.kind == kind }
            state.armed.removeAll { kind == nil || $0.kind == kind }
            let relisten = state.listener == nil && !state.stopped
                && !state.armed.contains { $0.fault.closesTheListener($0.trigger.trigger) }
            return (removed, Array(state.connections.values), relisten)
        }
        let ids = Set(removed.map(\.id))
        if !ids.isEmpty { Self.onTheirLoops(open.map { connection in (connection, { connection.drop(armedIDs: ids) }) }) }
        if relisten {
            let acceptor = self.acceptor
            let listener = try Self.bind(port: port, group: group) { channel in
                guard let proxy = acceptor.withLockedValue({ $0 }) else { return channel.close() }
                return proxy.accepted(channel)
            }
            state.withLockedValue { $0.listener = listener }
            let closer = removed.first { $0.fault.closesTheListener($0.trigger.trigger) }
            record(NetworkFiring(kind: closer?.kind ?? "network", connection: nil,
                                 detail: "listening again, on the same port"))
        }
        return removed.map(\.fault.label)
    }

    // MARK: - Evidence and stop

    /// What the faults did since the last call: which connections they picked, which
    /// connections they ended.
    package func takeFirings() -> [NetworkFiring] {
        state.withLockedValue { state in
            defer { state.firings.removeAll() }
            return state.firings
        }
    }

    private func record(_ firing: NetworkFiring) {
        state.withLockedValue { $0.firings.append(firing) }
    }

    private func recordEnding(of connection: Int, _ ending: NetworkEnding) {
        state.withLockedValue { state in
            let kinds = state.picked[connection] ?? []
            let what: String = switch ending {
            case .close: "closed"
            case .reset: "reset (ECONNRESET)"
            }
            state.firings.append(NetworkFiring(kind: kinds.last ?? "network", connection: connection,
                                               detail: "connection \(connection) \(what) by \(kinds.joined(separator: ", "))"))
        }
    }

    /// Connections open right now.
    package var openConnections: Int { state.withLockedValue { $0.connections.count } }

    /// Closes every open connection, both sides, and forgets it; returns how many there
    /// were. For connections whose app has ended: the kernel closed its sockets, but the
    /// proxy may not have read that yet, and a fault armed now would count each one as a
    /// connection it picks (`after: 1` would let a dead one through, not the next one).
    @discardableResult
    package func closeOpenConnections() -> Int {
        let open = state.withLockedValue { state in
            defer { state.connections.removeAll() }
            return Array(state.connections.values)
        }
        Self.onTheirLoops(open.map { connection in (connection, { connection.shutDown() }) })
        return open.count
    }

    /// Closes the listener and every connection. Blocks until the listener is closed.
    package func stop() {
        let (listener, open) = state.withLockedValue { state in
            state.stopped = true
            defer { state.listener = nil; state.connections.removeAll() }
            return (state.listener, Array(state.connections.values))
        }
        try? listener?.close().wait()
        for connection in open {
            try? connection.eventLoop.submit { connection.shutDown() }.wait()
        }
        acceptor.withLockedValue { $0 = nil }
    }
}
