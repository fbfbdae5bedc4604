import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import ChaosTarget

/// The family registry over HTTP/1.1 and JSON, on 127.0.0.1 (a free port):
///
/// | request | answer |
/// |---|---|
/// | `POST /families` `{code, name, clientID}` | 201 with the family; 409 when the code exists; 400 for a bad body |
/// | `GET /families/{code}` | 200 with the family, or 404 |
/// | `GET /families` | 200 `{"families": [...]}` |
///
/// Every answer closes its connection (`Connection: close`), so one request is one
/// connection through the fault proxy: a trigger counted in connections counts
/// requests, and `after: 1` reliably means "let the first request through".
package final class FamilyRegistryServer: Sendable {
    package let registry: FamilyRegistry
    package let port: Int
    private let listener: any Channel

    private init(registry: FamilyRegistry, port: Int, listener: any Channel) {
        self.registry = registry
        self.port = port
        self.listener = listener
    }

    /// Binds 127.0.0.1 on `port` (0: a free one) and serves `registry`. Blocks until bound.
    package static func start(registry: FamilyRegistry = FamilyRegistry(), group: any EventLoopGroup, port: Int = 0) throws -> FamilyRegistryServer {
        let listener = try ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(RegistryHTTPHandler(registry: registry))
                }
            }
            .withBoundSocket(LoopbackListeningSocket.bound(port: port))
            .wait()
        guard let port = listener.localAddress?.port else {
            listener.close(promise: nil)
            throw RegistryError(description: "the family registry has no local port")
        }
        return FamilyRegistryServer(registry: registry, port: port, listener: listener)
    }

    /// The probes, by name, with the paths that answer them: the registry's declaration
    /// (``RegistryHTTPHandler`` answers them).
    package static let probes = ["families", "duplicates", "registrations"].reduce(into: [String: String]()) { $0[$1] = "/chaos/probe/\($1)" }

    /// Stops listening. Blocks until the listening socket is closed.
    package func stop() {
        try? listener.close().wait()
    }
}

/// Why the registry could not start.
package struct RegistryError: Error, CustomStringConvertible {
    package let description: String
}

/// One request → one JSON answer → close.
///
/// Unchecked Sendable: a channel handler lives on its channel's event loop; NIO never
/// calls it from another thread, so `head` and `body` need no lock.
final class RegistryHTTPHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: FamilyRegistry
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(registry: FamilyRegistry) {
        self.registry = registry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            self.head = head
            body.clear()
        case var .body(chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            let (status, json) = answer(head, body: Data(body.readableBytesView))
            respond(context: context, status: status, json: json)
            self.head = nil
        }
    }

    private func answer(_ head: HTTPRequestHead, body: Data) -> (HTTPResponseStatus, Data) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let parts = path.split(separator: "/").map(String.init)
        switch (head.method, parts.count) {
        case (.POST, 1) where parts[0] == "families":
            guard let family = try? JSONDecoder().decode(FamilyRegistry.Family.self, from: body),
                  !family.code.isEmpty, !family.name.isEmpty, !family.clientID.isEmpty else {
                return (.badRequest, Self.message("expected {code, name, clientID}, each non-empty"))
            }
            switch registry.register(family) {
            case let .created(family): return (.created, Self.encode(family))
            case .conflict: return (.conflict, Self.message("the code \(family.code) is taken"))
            }
        case (.GET, 2) where parts[0] == "families":
            guard let family = registry.family(code: parts[1]) else { return (.notFound, Self.message("no such family")) }
            return (.ok, Self.encode(family))
        case (.GET, 1) where parts[0] == "families":
            return (.ok, Self.encode(["families": registry.families]))
        case (.GET, 3) where parts[0] == "chaos" && parts[1] == "probe":
            guard let value = probe(parts[2]) else { return (.notFound, Self.message("no probe \(parts[2])")) }
            return (.ok, Self.encode(value))
        default:
            return (.notFound, Self.message("no route for \(head.method) \(path)"))
        }
    }

    /// What the controller may ask of the registry itself (its declared probes, never
    /// through the proxy): families registered; codes registered twice plus creations
    /// (client ids) behind two families; registration requests received, retries included.
    private func probe(_ name: String) -> Int? {
        switch name {
        case "families": registry.families.count
        case "duplicates": registry.duplicates
        case "registrations": registry.registrationRequests
        default: nil
        }
    }

    private func respond(context: ChannelHandlerContext, status: HTTPResponseStatus, json: Data) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(json.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: json)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    private static func encode<Value: Encodable>(_ value: Value) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    private static func message(_ text: String) -> Data {
        encode(["error": text])
    }
}
