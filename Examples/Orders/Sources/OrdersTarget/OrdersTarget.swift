import ChaosTarget
import Foundation
import OrdersCore

/// The orders example's Chaos target: an app whose data lives on a PostgreSQL server,
/// reached through postgres-nio. The server is the target's declared remote, an address
/// that already listens (a CI job or a test starts it, and names its port in
/// `CHAOS_EXAMPLE_PG_PORT`): Chaos puts its fault proxy in front of it for each case, so
/// network faults act between the app and its database. Each case gets a database of its
/// own on that server, made on the server itself. `--variant fragile` is the store a team
/// ships first; `fixed` the one `chaos check` pushed it to; `backoff` the fixed one behind
/// a two-second back-off after a failure of the server.
@main
final class OrdersTarget: ChaosTarget {
    // Nothing on the device: every order is on the server.
    static let files: [String: String] = [:]
    static let sqlite: [SQLiteLibrary] = []
    static let variants = ["fixed", "fragile", "backoff"]
    static let modes: [Health.Mode] = Health.Mode.standard + ["offline"]
    static let workload: Workload? = Workload(write: "orders.add", read: "orders.list")
    static let actions: [TargetAction<OrdersTarget>] = [
        TargetAction("orders.add", parameters: [.int("quantity", in: 1...1_000)]) { target, call in
            let quantity = try call.int("quantity", default: 1, in: 1...1_000)
            _ = try await target.launched(target.store).add(quantity: quantity) { call.acknowledge("order:\($0.id)") }
            return .done()
        },
        TargetAction("orders.list", parameters: []) { target, _ in .read(.int(try await target.launched(target.store).all().count)) },
    ]
    static let remotes: [Remote] = [.address("postgres", host: "127.0.0.1", portFrom: "CHAOS_EXAMPLE_PG_PORT")]
    static let user = ProcessInfo.processInfo.environment["CHAOS_EXAMPLE_PG_USER"] ?? "postgres"

    private let context: TargetContext
    private var store: (any OrderStore)?

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        guard let proxy = context.remotes["postgres"], let server = context.servers["postgres"] else { return .unavailable("The order server is not configured.") }
        // The case's own database, made on the server itself: no fault meets set-up.
        try? await OrdersServer.createDatabase(context.caseName, host: server.host, port: server.port, username: Self.user)
        do {
            store = try await openOrderStore(variant: context.variant,
                                             server: OrdersServer(host: proxy.host, port: proxy.port, username: Self.user, database: context.caseName))
            return .warning(await store?.notice, mode: "offline")
        } catch {
            return .unavailable(error.message)
        }
    }

    /// Once an action got through, the server is back: the launch's "offline" is over.
    var health: Health { lastAction?.ok == true ? Health() : launchHealth }

    func snapshot() async throws -> [String: [String: String]] { .records("order", try await launched(store).all()) }

    func stop() async { await store?.close() }
}
