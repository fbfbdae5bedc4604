import ChaosTarget
import Foundation
import OrdersCore

extension Health.Mode {
    /// The server cannot be reached: the app runs, shows nothing, and says so.
    static let offline: Health.Mode = "offline"
}

/// The orders example's Chaos target: an app whose data lives on a PostgreSQL server,
/// reached through postgres-nio. The server is the target's declared remote, an address
/// that already listens (a CI job or a test starts it, and names its port in
/// `CHAOS_EXAMPLE_PG_PORT`): Chaos puts its fault proxy in front of it for each case, so
/// network faults act between the app and its database. Each case gets a database of its
/// own on that server. `--variant fragile` is the store a team ships first; `fixed` the
/// one `chaos check` pushed it to; `backoff` the fixed one behind a two-second back-off
/// after a failure of the server.
@main
final class OrdersTarget: ChaosTarget {
    static let portVariable = "CHAOS_EXAMPLE_PG_PORT"
    static let userVariable = "CHAOS_EXAMPLE_PG_USER"

    // Nothing on the device: every order is on the server.
    static let files: [String: String] = [:]
    static let sqlite: [SQLiteLibrary] = []
    static let variants = ["fixed", "fragile", "backoff"]
    static let modes: [Health.Mode] = Health.Mode.standard + [.offline]
    static let workload: Workload? = Workload(write: "orders.add", read: "orders.list")
    static let actions: [TargetAction<OrdersTarget>] = [
        TargetAction("orders.add", parameters: [.int("quantity", in: 1...1_000)]) { target, call in
            try await target.add(call)
        },
        TargetAction("orders.list", parameters: []) { target, _ in await target.list() },
    ]

    static var remotes: [Remote] {
        [.address("postgres", host: "127.0.0.1", port: ProcessInfo.processInfo.environment[portVariable].flatMap(Int.init) ?? 0)]
    }

    /// Refuses to start without the server's port: a target that declared a remote on
    /// port 0 would only fail later, and less clearly.
    static func main() async {
        let port = ProcessInfo.processInfo.environment[portVariable]
        guard let port, let number = Int(port), (1...65_535).contains(number) else {
            FileHandle.standardError.write(Data("""
                chaos-example-orders: set \(portVariable) to the port of a PostgreSQL server listening on 127.0.0.1 \
                (found \(port.map { "'\($0)'" } ?? "nothing")); \(userVariable) names the role (default postgres). \
                The test PostgresExampleTests starts a throwaway one.\n
                """.utf8))
            exit(64)
        }
        exit(await serve(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    private let context: TargetContext
    private var store: (any OrderStore)?
    private var notice: String?
    private var lastError: String?

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        guard let address = context.remotes["postgres"] else {
            notice = "The order server is not configured."
            return health
        }
        let server = OrdersServer(host: address.host, port: address.port,
                                  username: ProcessInfo.processInfo.environment[Self.userVariable] ?? "postgres",
                                  database: OrdersServer.databaseName(for: context.dataDirectory.path))
        if context.variant == "fragile" {
            do { store = try await FragileOrderStore.open(server: server) } catch { notice = error.message }
        } else if context.variant == "backoff" {
            let backingOff = BackingOffOrderStore(server: server)
            await backingOff.open()
            store = backingOff
            notice = await backingOff.notice
        } else {
            let fixed = FixedOrderStore(server: server)
            await fixed.open()
            store = fixed
            notice = await fixed.notice
        }
        return health
    }

    var health: Health {
        guard let notice else { return Health() }
        return Health(mode: store == nil ? .inMemory : .offline, severity: store == nil ? .error : .warning, message: notice)
    }

    var surfaced: Surfaced {
        if let lastError { return .error(lastError) }
        guard let notice else { return .nothing }
        return store == nil ? .error(notice) : .warning(notice)
    }

    private func add(_ call: ActionCall) async throws -> ActionResult {
        guard let store else { return .failed(notice) }
        let quantity = try call.int("quantity", default: 1, in: 1...1_000)
        do {
            _ = try await store.add(quantity: quantity) { order in
                call.acknowledge("order:\(order.id)")
            }
            lastError = nil
            notice = nil
            return .done()
        } catch {
            lastError = error.message
            return .failed(error.message)
        }
    }

    private func list() async -> ActionResult {
        guard let store else { return .failed(notice) }
        do {
            let orders = try await store.all()
            lastError = nil
            notice = nil
            return .read(.int(orders.count))
        } catch {
            lastError = error.message
            return .failed(error.message)
        }
    }

    /// Every order of the case's database, read from the server.
    func snapshot() async throws -> [String: [String: String]] {
        guard let store else { throw OrdersProblem(notice ?? "The order server is not configured.") }
        let orders = try await store.all()
        return ["orders": Dictionary(uniqueKeysWithValues: orders.map { ("order:\($0.id)", "\($0.quantity)") })]
    }

    func stop() async {
        await store?.close()
        store = nil
    }
}
