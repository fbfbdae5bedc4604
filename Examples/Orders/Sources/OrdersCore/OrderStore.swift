import Foundation
import PostgresNIO
import Synchronization

/// An order of the example app: what it keeps on the server.
public struct Order: Sendable, Equatable {
    public var id: Int
    public var quantity: Int
}

/// What the screen is told when something goes wrong, in plain words.
public struct OrdersProblem: Error, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }

    static let unreachable = OrdersProblem("The order server can't be reached right now. Please try again in a moment.")
    static let notLoaded = OrdersProblem("Your orders could not be loaded. Please try again.")
}

/// Where the orders live: a PostgreSQL server (under Chaos, the fault proxy in front of
/// it), the role to log in as, and the database that is this app's own.
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

    /// A database name for one data folder: every case of a run (each has a data folder of
    /// its own, kept across relaunches) gets a database of its own on the shared server,
    /// found again by the next launch of the same case.
    public static func databaseName(for dataDirectory: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across processes, unlike Hasher
        for byte in dataDirectory.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "orders_" + String(repeating: "0", count: 16 - hex.count) + hex  // always 23 characters
    }
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

    static func connect(_ server: OrdersServer, database: String, timeout: Duration?) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(host: server.host, port: server.port, username: server.username,
                                                             password: nil, database: database, tls: .disable)
        // The whole handshake, not only the TCP connect, is bounded by it.
        if let timeout { configuration.options.connectTimeout = .nanoseconds(timeout.nanoseconds) }
        let id = ids.withLock { value in
            value += 1
            return value
        }
        return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
    }

    /// Makes the app's database if it is not there yet, then its table. A database cannot
    /// be made from inside itself: the server's maintenance database `postgres` does it.
    static func prepare(_ server: OrdersServer, timeout: Duration?) async throws -> PostgresConnection {
        let admin = try await connect(server, database: "postgres", timeout: timeout)
        do {
            try await bounded(timeout, closing: admin) {
                let rows = try await admin.query("SELECT 1 FROM pg_database WHERE datname = \(server.database)", logger: logger)
                var exists = false
                for try await _ in rows { exists = true }
                guard !exists else { return }
                do {
                    try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(server.database)\""), logger: logger)
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P04" {
                    // duplicate_database: made since the look (a launch cut short after it).
                }
            }
        } catch {
            try? await admin.close()
            throw error
        }
        try? await admin.close()
        let connection = try await connect(server, database: server.database, timeout: timeout)
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
