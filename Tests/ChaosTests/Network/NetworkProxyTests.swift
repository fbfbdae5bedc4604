import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

extension NetworkLabSuite {
    /// Each network fault kind against the real proxy on loopback, in front of the real
    /// family registry, observed with a plain socket: refusal, silence, delay, reset,
    /// throttling, slicing, a cut-off and a late close. Bounds are generous (the machine
    /// may be busy); every wait is for an event, with a bound.
    @Suite("Network proxy")
    struct NetworkProxyTests {
        static let bound: Duration = .seconds(5)

        private func withLab(_ body: (RegistryLab) throws -> Void) throws {
            let lab = try RegistryLab.start()
            defer { lab.stop() }
            try body(lab)
        }

        private func get(_ lab: RegistryLab) throws -> (text: String, end: LoopbackClient.Received, chunks: Int, elapsed: Duration, firstByte: Duration?) {
            guard let client = try LoopbackClient.connectUnlessReset(port: lab.proxy.port) else {
                return ("", .reset, 0, .zero, nil)
            }
            let refused = client.send(LoopbackClient.listRequest)
            let (chunks, end, elapsed, firstByte) = client.receiveAll(within: Self.bound)
            // A reset that beat the request is reported to the send, once.
            let seen = refused == ECONNRESET || refused == EPIPE ? .reset : end
            return (String(decoding: chunks.joined(), as: UTF8.self), seen, chunks.count, elapsed, firstByte)
        }

        private static func post(code: String, clientID: String) -> String {
            let body = #"{"code":"\#(code)","name":"Test","clientID":"\#(clientID)"}"#
            return "POST /families HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        }

        @Test func withoutFaultsBytesPassUntouched() throws {
            try withLab { lab in
                let answer = try get(lab)
                #expect(answer.text.hasPrefix("HTTP/1.1 200"))
                #expect(answer.text.hasSuffix(#"{"families":[]}"#))
                #expect(answer.end == .closed)
            }
        }

        @Test func networkDownRefusesAndTheSamePortListensAgainWhenCleared() throws {
            try withLab { lab in
                try lab.arm(NetworkDownFault(), trigger: Trigger(), seed: 1)
                #expect(throws: LoopbackClient.ConnectFailure(errno: ECONNREFUSED)) { try LoopbackClient.connect(port: lab.proxy.port) }
                #expect(try lab.clear(kind: NetworkDownFault.kind) == ["network-down"])
                #expect(try get(lab).text.hasPrefix("HTTP/1.1 200"))
                #expect(lab.takeFirings().map(\.kind) == ["network-down", "network-down"])
            }
        }

        @Test func blackholeAcceptsAndNeverAnswers() throws {
            try withLab { lab in
                try lab.arm(BlackholeFault(), trigger: Trigger(), seed: 1)
                let client = try LoopbackClient.connect(port: lab.proxy.port)
                client.send(LoopbackClient.listRequest)
                #expect(client.receive(within: .milliseconds(600)) == .silent)
            }
        }

        @Test func blackholeDownstreamLetsTheRequestThroughAndLosesTheAnswer() throws {
            try withLab { lab in
                try lab.arm(BlackholeFault(direction: .downstream), trigger: Trigger(), seed: 1)
                let client = try LoopbackClient.connect(port: lab.proxy.port)
                client.send(Self.post(code: "ABC234", clientID: "d-1"))
                #expect(client.receive(within: .milliseconds(600)) == .silent, "neither the answer nor the close")
                #expect(lab.probe("remote.families") == .int(1), "the remote did the work")
                #expect(try lab.clear(kind: BlackholeFault.kind) == ["blackhole (downstream)"])
                // Once cleared, the connection ends for the client. The remote's answer and
                // close may still be on their way to the proxy when the clear lands (the
                // registry counts the family before it writes the answer): then they are
                // forwarded; else the swallowed close is released. Either way, it closes.
                #expect(client.receiveAll(within: .seconds(5)).end == .closed)
            }
        }

        @Test func latencyDelaysTheAnswer() throws {
            try withLab { lab in
                try lab.arm(LatencyFault(latency: .milliseconds(300)), trigger: Trigger(), seed: 1)
                let answer = try get(lab)
                #expect(answer.text.hasPrefix("HTTP/1.1 200"))
                #expect(try #require(answer.firstByte) >= .milliseconds(290))
            }
        }

        @Test func resetPeerResetsAtOnceOrWhenTheAnswerStarts() throws {
            try withLab { lab in
                try lab.arm(ResetPeerFault(), trigger: Trigger(times: 1), seed: 1)
                let client = try LoopbackClient.connectUnlessReset(port: lab.proxy.port)
                #expect(client?.receiveAll(within: Self.bound).end ?? .reset == .reset)

            }
            try withLab { lab in
                // The seed-001 shape: the remote registers, the answer is reset.
                try lab.arm(ResetPeerFault(afterBytes: 0), trigger: Trigger(times: 1), seed: 2)
                let second = try LoopbackClient.connect(port: lab.proxy.port)
                second.send(Self.post(code: "ABC234", clientID: "d-1"))
                let outcome = second.receiveAll(within: Self.bound)
                #expect(outcome.chunks.isEmpty)
                #expect(outcome.end == .reset)
                #expect(lab.probe("remote.families") == .int(1))
            }
        }

        @Test func bandwidthThrottlesToTheRate() throws {
            try withLab { lab in
                try lab.arm(BandwidthFault(bytesPerSecond: 500), trigger: Trigger(), seed: 1)
                let answer = try get(lab)
                #expect(answer.text.hasPrefix("HTTP/1.1 200"))
                let bytes = answer.text.utf8.count
                // bytes / rate seconds at least: 2 ms per byte.
                #expect(answer.elapsed >= .milliseconds(bytes * 2 * 9 / 10), "\(bytes) bytes in \(answer.elapsed)")
            }
        }

        @Test func slicerDeliversSmallPiecesWithPauses() throws {
            try withLab { lab in
                try lab.arm(SlicerFault(averageSize: 10, delay: .milliseconds(30)), trigger: Trigger(), seed: 1)
                let answer = try get(lab)
                #expect(answer.text.hasPrefix("HTTP/1.1 200"))
                #expect(answer.text.hasSuffix(#"{"families":[]}"#), "slicing loses nothing")
                #expect(answer.chunks >= 5, "\(answer.chunks) reads")
                #expect(answer.elapsed >= .milliseconds(30 * 4))
            }
        }

        @Test func upstreamSlicesWithJitteredLatencyArriveWholeAndInOrder() throws {
            try withLab { lab in
                try lab.arm(SlicerFault(averageSize: 7, sizeVariation: 3, delay: .milliseconds(5), direction: .upstream),
                            trigger: Trigger(), seed: 1)
                try lab.arm(LatencyFault(latency: .milliseconds(20), jitter: .milliseconds(15), direction: .both),
                            trigger: Trigger(), seed: 2)
                let client = try LoopbackClient.connect(port: lab.proxy.port)
                client.send(Self.post(code: "ORD234", clientID: "d-order"))
                let answer = String(decoding: client.receiveAll(within: Self.bound).chunks.joined(), as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 201"), "the remote parsed the sliced request: \(answer)")
                #expect(lab.registry.registry.family(code: "ORD234")?.clientID == "d-order")
            }
        }

        @Test func limitDataCutsTheStreamShort() throws {
            try withLab { lab in
                try lab.arm(LimitDataFault(bytes: 20), trigger: Trigger(), seed: 1)
                let answer = try get(lab)
                #expect(answer.text.utf8.count == 20)
                #expect(answer.text == "HTTP/1.1 200 OK\r\nCon")
                #expect(answer.end == .closed)
            }
        }

        @Test func slowCloseHoldsTheCloseBack() throws {
            try withLab { lab in
                try lab.arm(SlowCloseFault(delay: .milliseconds(600)), trigger: Trigger(), seed: 1)
                let answer = try get(lab)
                #expect(answer.text.hasSuffix(#"{"families":[]}"#))
                #expect(answer.end == .closed)
                #expect(answer.elapsed - (answer.firstByte ?? .zero) >= .milliseconds(550))
            }
        }

        @Test func faultsApplyToConnectionsAlreadyOpen() throws {
            try withLab { lab in
                let slow = try LoopbackClient.connect(port: lab.proxy.port)
                let silent = try LoopbackClient.connect(port: lab.proxy.port)
                let doomed = try LoopbackClient.connect(port: lab.proxy.port)
                try lab.arm(LatencyFault(latency: .milliseconds(300)), trigger: Trigger(times: 1), seed: 1)   // connection 1
                try lab.arm(BlackholeFault(), trigger: Trigger(after: 1, times: 1), seed: 1)                  // connection 2
                try lab.arm(ResetPeerFault(), trigger: Trigger(after: 2, times: 1), seed: 1)                   // connection 3
                #expect(doomed.receive(within: Self.bound) == .reset)
                slow.send(LoopbackClient.listRequest)
                silent.send(LoopbackClient.listRequest)
                let delayed = slow.receiveAll(within: Self.bound)
                #expect(try #require(delayed.firstByte) >= .milliseconds(290))
                #expect(delayed.end == .closed)
                #expect(silent.receive(within: .milliseconds(400)) == .silent)
            }
        }

        /// An app that ended leaves its connections open in the proxy until the proxy reads
        /// their close; a fault armed then counts them. The seam closes them first, so
        /// `times: 1` picks the next app's connection, not a dead one (a commit cut that
        /// missed on a busy machine).
        @Test func connectionsClosedBeforeArmingAreNotPicked() throws {
            func armAfterAKeptConnection(closingFirst: Bool) throws -> [Int] {
                var picked: [Int] = []
                try withLab { lab in
                    // Connection 1 waits on its unfinished request; connection 2's whole answer
                    // means the proxy accepted both (it accepts in order, on one loop).
                    let kept = try LoopbackClient.connect(port: lab.proxy.port)
                    kept.send("GET /families HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    #expect(try get(lab).text.hasPrefix("HTTP/1.1 200"))
                    if closingFirst {
                        #expect(lab.proxy.closeOpenConnections() >= 1)
                        #expect(kept.receiveAll(within: Self.bound).end == .closed)
                        #expect(lab.proxy.openConnections == 0)
                    }
                    try lab.arm(ResetPeerFault(), trigger: Trigger(times: 1), seed: 1)
                    #expect(try get(lab).end == (closingFirst ? .reset : .closed))
                    picked = lab.takeFirings().filter { $0.detail.contains(" on connection ") }.compactMap(\.connection)
                }
                return picked
            }
            #expect(try armAfterAKeptConnection(closingFirst: false) == [1], "an open connection is picked")
            #expect(try armAfterAKeptConnection(closingFirst: true) == [3])
        }

        @Test func clearingRestoresPlainForwarding() throws {
            try withLab { lab in
                try lab.arm(BlackholeFault(), trigger: Trigger(), seed: 1)
                #expect(try lab.clear(kind: nil) == ["blackhole"])
                #expect(try get(lab).text.hasPrefix("HTTP/1.1 200"))
            }
        }

        @Test func probabilityPicksTheSameConnectionsForTheSameSeed() throws {
            func pattern(seed: UInt64) throws -> [Bool] {
                var resets: [Bool] = []
                try withLab { lab in
                    try lab.arm(ResetPeerFault(), trigger: Trigger(probability: 0.5), seed: seed)
                    for _ in 0..<12 { resets.append(try get(lab).end == .reset) }
                    let picked = lab.takeFirings().filter { $0.detail.contains(" on connection ") }.compactMap(\.connection)
                    #expect(picked == resets.enumerated().filter(\.element).map { $0.offset + 1 })
                }
                return resets
            }
            let first = try pattern(seed: 42)
            #expect(first == (try pattern(seed: 42)))
            #expect(first.contains(true) && first.contains(false), "\(first)")
        }

        @Test func aStoppedLabLeavesNoListeningSocketAndNoThread() throws {
            let threadsBefore = threads(named: "NIO-ELT")
            let lab = try RegistryLab.start()
            let ports = [lab.proxy.port, lab.registry.port]
            #expect(ports.allSatisfy { listeningSockets(onPort: $0) == 1 })
            // An exit test spawned meanwhile by another test must not inherit them: it
            // would keep the ports accepting after the lab closed them.
            #expect(ports.allSatisfy(listeningSocketsAreCloseOnExec(onPort:)))
            // One loop for the registry this test runs in-process, one for the lab's proxies.
            #expect(threads(named: "NIO-ELT") == threadsBefore + 2)
            // A connection left hanging in a black hole must not keep anything alive.
            try lab.arm(BlackholeFault(), trigger: Trigger(), seed: 1)
            let hanging = try LoopbackClient.connect(port: lab.proxy.port)
            hanging.send(LoopbackClient.listRequest)
            lab.stop()
            for port in ports {
                #expect(listeningSockets(onPort: port) == 0)
                #expect(throws: LoopbackClient.ConnectFailure(errno: ECONNREFUSED)) { try LoopbackClient.connect(port: port) }
            }
            #expect([.closed, .reset].contains(hanging.receive(within: Self.bound)), "the hanging connection ended")
            #expect(threads(named: "NIO-ELT") == threadsBefore)
        }
    }
}
