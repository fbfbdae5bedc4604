import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 request and its answer on a connection of its own, read by NIO's HTTP
/// parser, the whole exchange bounded by `timeout`: an answer cut anywhere, a reset, a
/// server that never answers — each is an error thrown, never a trap.
///
/// Why not URLSession here: on Linux, FoundationNetworking traps the process when an
/// answer is cut inside its headers (swift-corelibs-foundation#5285). `chaos hunt` found
/// it in this example's fixed variant: a `limit-data` fault of 40 bytes on the server,
/// and the app died at its first sync (`NativeProtocol.swift:240`).
enum NIOExchange {
    struct Answer: Sendable {
        var status: Int
        var body: Data
    }

    enum Problem: Error {
        /// The connection closed (or was closed at the deadline) before the answer ended.
        case cut
    }

    static func send(_ method: HTTPMethod, to url: URL, body: Data?, timeout: Duration) async throws -> Answer {
        let host = url.host ?? "127.0.0.1"
        let port = url.port ?? 80
        let milliseconds = Int64(max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let promise = loop.makePromise(of: Answer.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(.milliseconds(milliseconds))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(AnswerReader(promise: promise))
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            // A promise NIO made must be completed, or it traps when it goes (in debug builds).
            promise.fail(error)
            throw error
        }
        // At the deadline the connection is closed: the reader then fails the answer.
        let deadline = loop.scheduleTask(in: .milliseconds(milliseconds)) { channel.close(promise: nil) }
        defer {
            deadline.cancel()
            channel.close(promise: nil)
        }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: url.path.isEmpty ? "/" : url.path)
        head.headers.add(name: "Host", value: "\(host):\(port)")
        head.headers.add(name: "Connection", value: "close")
        if let body {
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(body.count))
        }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        return try await promise.futureResult.get()
    }
}

/// Collects one answer; fails it when the connection ends first or breaks. On the
/// channel's event loop only, so its state needs no lock.
private final class AnswerReader: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<NIOExchange.Answer>
    private var status: Int?
    private var body = Data()
    private var done = false

    init(promise: EventLoopPromise<NIOExchange.Answer>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head): status = Int(head.status.code)
        case let .body(buffer): body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let status else { return finish(.failure(NIOExchange.Problem.cut)) }
            finish(.success(NIOExchange.Answer(status: status, body: body)))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(NIOExchange.Problem.cut))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    private func finish(_ result: Result<NIOExchange.Answer, any Error>) {
        guard !done else { return }
        done = true
        promise.completeWith(result)
    }
}
