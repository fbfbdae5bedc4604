import Foundation
import PostgresNIO

/// The orders store after `chaos check`:
///
/// - an order is one statement outside `BEGIN`: a transaction of its own, which the
///   server commits before it answers. The user is told it is saved only once that
///   answer is back, and the key is the id the answer carries: an id that exists only
///   once the order is committed, so nothing is announced before it;
/// - every connect and every query has a time limit: a server that stops answering
///   costs the user two seconds, never the app;
/// - a broken connection is dropped; the next action makes a new one;
/// - an order whose answer was lost is not placed again: the server may have committed
///   it, and a blind retry would place it twice. The user is told it may not be saved
///   and to look before placing it again (Chaos judges such an order, present, as
///   indeterminate: the app could not know);
/// - a read is retried once on a new connection: reading twice changes nothing.
public actor FixedOrderStore: OrderStore {
    static let timeout: Duration = .seconds(2)

    private let server: OrdersServer
    private var connection: PostgresConnection?
    /// The table is there (made at the first connection of a launch).
    private var prepared = false
    public private(set) var notice: String?

    public init(server: OrdersServer) {
        self.server = server
    }

    /// Reaches the server at launch; when it cannot, the app still starts, says so, and
    /// tries again at the next action.
    public func open() async {
        do {
            _ = try await connected()
            notice = nil
        } catch {
            notice = error.message
        }
    }

    private func connected() async throws(OrdersProblem) -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        do {
            let fresh = prepared
                ? try await OrdersSQL.connect(server, timeout: Self.timeout)
                : try await OrdersSQL.prepare(server, timeout: Self.timeout)
            prepared = true
            connection = fresh
            return fresh
        } catch {
            throw .unreachable
        }
    }

    private func drop(_ broken: PostgresConnection) async {
        if connection === broken { connection = nil }
        try? await broken.close()
    }

    public func add(quantity: Int, saved: @Sendable (Order) -> Void) async throws(OrdersProblem) -> Order {
        let connection = try await connected()
        do {
            let order = try await bounded(Self.timeout, closing: connection) {
                try await OrdersSQL.insert(quantity, on: connection)
            }
            saved(order)
            notice = nil
            return order
        } catch {
            await drop(connection)
            if OrdersSQL.serverRefused(error) { throw OrdersProblem("Your order could not be saved. Please try again.") }
            throw OrdersProblem("The connection to the order server was lost, so your order may not have been saved. "
                + "Check your orders before placing it again.")
        }
    }

    public func all() async throws(OrdersProblem) -> [Order] {
        for attempt in 1...2 {
            let connection = try await connected()
            do {
                return try await bounded(Self.timeout, closing: connection) { try await OrdersSQL.orders(on: connection) }
            } catch {
                await drop(connection)
                if attempt == 2 || OrdersSQL.serverRefused(error) { break }
            }
        }
        throw .notLoaded
    }

    public func close() async {
        if let connection { try? await connection.close() }
        connection = nil
    }
}
