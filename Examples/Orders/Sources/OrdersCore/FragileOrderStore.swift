import Foundation
import PostgresNIO

/// The orders store as a team ships it first. (This is what NOT to do; it lives only in
/// this example.)
///
/// - each order is placed in a transaction (`withTransaction`), and the user is told it
///   is saved as soon as its row is in: inside the transaction, before `COMMIT`. A commit
///   that never reaches the server loses an order the user was told was saved;
/// - a failed order is placed again on a new connection, blindly: an order whose
///   commit's answer was lost is placed twice;
/// - no time limit on any query: a server that stops answering hangs the app, and so
///   does a connection the network reset while it was idle: postgres-nio 1.33.2 never
///   answers a query written to a connection that has closed (vapor/postgres-nio#487,
///   reverted in #501), and this store writes the next order's `BEGIN` to it.
///
/// `chaos check` catches the hangs (the remote down, every connection reset, a remote
/// that never answers); `scenarios/orders-commit-cut.yaml` cuts the connection as
/// `COMMIT` leaves and catches the order lost after the user was told it was placed.
public actor FragileOrderStore: OrderStore {
    private let server: OrdersServer
    private var connection: PostgresConnection
    public let notice: String? = nil

    private init(server: OrdersServer, connection: PostgresConnection) {
        self.server = server
        self.connection = connection
    }

    public static func open(server: OrdersServer) async throws(OrdersProblem) -> FragileOrderStore {
        do {
            return FragileOrderStore(server: server, connection: try await OrdersSQL.prepare(server, timeout: nil))
        } catch {
            throw .unreachable
        }
    }

    public func add(quantity: Int, saved: @Sendable (Order) -> Void) async throws(OrdersProblem) -> Order {
        do {
            return try await place(quantity, saved)
        } catch {
            // The network blipped: a new connection, and the same order once more.
            do {
                try await reconnect()
                return try await place(quantity, saved)
            } catch {
                throw OrdersProblem("Your order could not be saved. Please try again.")
            }
        }
    }

    private func place(_ quantity: Int, _ saved: @Sendable (Order) -> Void) async throws -> Order {
        try await connection.withTransaction(logger: OrdersSQL.logger) { connection in
            let order = try await OrdersSQL.insert(quantity, on: connection)
            saved(order)  // "Order placed!" as soon as the row is in
            return order
        }
    }

    private func reconnect() async throws {
        try? await connection.close()
        connection = try await OrdersSQL.connect(server, timeout: nil)
    }

    public func all() async throws(OrdersProblem) -> [Order] {
        do {
            return try await OrdersSQL.orders(on: connection)
        } catch {
            do {
                try await reconnect()
                return try await OrdersSQL.orders(on: connection)
            } catch {
                throw .notLoaded
            }
        }
    }

    public func close() async {
        try? await connection.close()
    }
}
