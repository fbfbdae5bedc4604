import Foundation
import PostgresNIO
import Synchronization

/// An order of the example app: what it keeps on the server.
public struct Order: Sendable, Equatable, Identifiable {
    public var id: Int
    public var quantity: Int
}

/// What the screen is told when something goes wrong, in plain words: its
/// `errorDescription`, as a `LocalizedError`'s.
public struct OrdersProblem: LocalizedError, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var errorDescription: String? { message }

    static let unreachable = OrdersProblem("The order server can't be reached right now. Please try again in a moment.")
    static let notLoaded = OrdersProblem("Your orders could not be loaded. Please try again.")
}

/// Where the orders live: a PostgreSQL server (under Chaos, the fault proxy in front of
/// it), the role to log in as, and the database that is this app's own (made beforehand:
/// ``createDatabase(_:host:port:username:)``).
public struct OrdersServer: Sendable {
    public var host: String
    public var port: Int
    public var username: String
    public var database: String

    public init(host: String, port: Int, username: String, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.database = database
    }

    /// Makes the database `name` on the server at `host:port` if it is not there yet, as a
    /// deployment or a test's set-up does — not the app, which only ever opens its own. A
    /// database cannot be made from inside itself: the server's maintenance database
    /// `postgres` does it. Under Chaos, `host:port` is the server itself
    /// (`context.servers`), never the fault proxy: a fault met here would be set-up's, not
    /// the app's.
    public static func createDatabase(_ name: String, host: String, port: Int, username: String) async throws {
        let admin = try await OrdersSQL.connect(OrdersServer(host: host, port: port, username: username, database: "postgres"),
                                                timeout: .seconds(10))
        defer { Task { try? await admin.close() } }
        let rows = try await admin.query("SELECT 1 FROM pg_database WHERE datname = \(name)", logger: OrdersSQL.logger)
        for try await _ in rows { return }
        do {
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name)\""), logger: OrdersSQL.logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P04" {
            // duplicate_database: made since the look.
        }
    }
}

/// Opens the store a build of the app ships: `fragile`, the fixed one (which starts
/// even when the server cannot be reached, and says so in its notice), or `backoff`, the
/// fixed one resting two seconds after each failure of the server.
public func openOrderStore(variant: String, server: OrdersServer) async throws(OrdersProblem) -> any OrderStore {
    if variant == "fragile" { return try await FragileOrderStore.open(server: server) }
    if variant == "backoff" {
        let backingOff = BackingOffOrderStore(server: server)
        await backingOff.open()
        return backingOff
    }
    let fixed = FixedOrderStore(server: server)
    await fixed.open()
    return fixed
}

/// The orders app's store on PostgreSQL through postgres-nio. Two builds of it: the one
/// a team ships first, and the one `chaos check` pushed it to.
public protocol OrderStore: Sendable {
    /// What the user was told at launch, if anything.
    var notice: String? { get async }
    /// Places an order. `saved` is the moment the user is told it is saved.
    func add(quantity: Int, saved: @Sendable (Order) -> Void) async throws(OrdersProblem) -> Order
    func all() async throws(OrdersProblem) -> [Order]
    func close() async
}

/// The SQL both stores run, and how they reach the server.
enum OrdersSQL {
    static let createTable = "CREATE TABLE IF NOT EXISTS orders (id bigserial PRIMARY KEY, quantity integer NOT NULL)"

    /// postgres-nio logs through swift-log, whose default handler writes to standard
    /// output: under Chaos that is the protocol's channel, so only what is critical.
    static let logger: Logger = {
        var logger = Logger(label: "orders")
        logger.logLevel = .critical
        return logger
    }()

    private static let ids = Mutex(0)

    static func connect(_ server: OrdersServer, timeout: Duration?) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(host: server.host, port: server.port, username: server.username,
                                                             password: nil, database: server.database, tls: .disable)
        // The whole handshake, not only the TCP connect, is bounded by it.
        if let timeout { configuration.options.connectTimeout = .nanoseconds(timeout.nanoseconds) }
        let id = ids.withLock { value in
            value += 1
            return value
        }
        return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
    }

    /// Connects to the app's database and makes its table if it is not there yet, as the
    /// app does at every launch.
    static func prepare(_ server: OrdersServer, timeout: Duration?) async throws -> PostgresConnection {
        let connection = try await connect(server, timeout: timeout)
        do {
            try await bounded(timeout, closing: connection) {
                try await connection.query(PostgresQuery(unsafeSQL: createTable), logger: logger)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        return connection
    }

    /// One statement, so one transaction of its own: the server commits it before its
    /// answer leaves, and the id comes back in that answer.
    static func insert(_ quantity: Int, on connection: PostgresConnection) async throws -> Order {
        let rows = try await connection.query("INSERT INTO orders (quantity) VALUES (\(quantity)) RETURNING id", logger: logger)
        for try await id in rows.decode(Int.self) { return Order(id: id, quantity: quantity) }
        throw OrdersProblem("no id came back")
    }

    static func orders(on connection: PostgresConnection) async throws -> [Order] {
        let rows = try await connection.query("SELECT id, quantity FROM orders ORDER BY id", logger: logger)
        var orders: [Order] = []
        for try await (id, quantity) in rows.decode((Int, Int).self) { orders.append(Order(id: id, quantity: quantity)) }
        return orders
    }

    /// True when the server itself answered with an error: the statement did not happen.
    /// Anything else (a reset, a timeout, a closed connection) leaves its outcome unknown.
    static func serverRefused(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo != nil
    }
}

/// The query gave no answer in time.
struct QueryTimedOut: Error {}

/// Runs `body`, or gives up after `timeout` (nil: waits as long as it takes), closing
/// `connection` so the server lets go of it too. The body is not awaited once the time
/// is up: postgres-nio 1.33.2 never answers a query written to a connection that has
/// just closed (its fix, vapor/postgres-nio#487, was reverted in #501), so a task group
/// that waited for its children would hang with it. Such a body is left suspended.
@discardableResult
func bounded<T: Sendable>(_ timeout: Duration?, closing connection: PostgresConnection,
                          _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    guard let timeout else { return try await body() }
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let answer = FirstAnswer(continuation)
        let work = Task { answer.give(await Result(catching: body)) }
        Task {
            try? await Task.sleep(for: timeout)
            guard answer.give(.failure(QueryTimedOut())) else { return }
            work.cancel()
            try? await connection.close()
        }
    }
}

/// Resumes a continuation with the first result given; later ones are dropped.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    /// True when this result was the first.
    @discardableResult
    func give(_ result: Result<T, any Error>) -> Bool {
        guard let waiting = continuation.withLock({ value in defer { value = nil }; return value }) else { return false }
        waiting.resume(with: result)
        return true
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
