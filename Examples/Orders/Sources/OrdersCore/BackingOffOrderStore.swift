/// The fixed store behind a back-off, as apps with a circuit breaker run: after the
/// server failed it (unreachable, a connection lost, a read that did not come back), the
/// app leaves it alone for two seconds — every order and every read in that time is
/// refused at once, with words that say it will try again — and then tries it again.
/// What the seeds ask of an app with a remote: retry with back-off, recover within 5 s.
///
/// A read asked right after the network came back falls inside the pause and fails;
/// one asked two seconds later answers. `chaos check` judges recovery as a user would —
/// it keeps asking the read until it answers or 5 s have passed — so this variant
/// passes the network cases with a recovery of about two seconds.
public actor BackingOffOrderStore: OrderStore {
    public static let pause: Duration = .seconds(2)

    private let store: FixedOrderStore
    /// Until when the server is left alone, after its last failure.
    private var restingUntil: ContinuousClock.Instant?

    public init(server: OrdersServer) {
        store = FixedOrderStore(server: server)
    }

    public var notice: String? {
        get async { await store.notice }
    }

    public func open() async {
        await store.open()
        if await store.notice != nil { rest() }
    }

    public func add(quantity: Int, saved: @Sendable (Order) -> Void) async throws(OrdersProblem) -> Order {
        try refuseWhileResting()
        do {
            return try await store.add(quantity: quantity, saved: saved)
        } catch {
            rest()
            throw error
        }
    }

    public func all() async throws(OrdersProblem) -> [Order] {
        try refuseWhileResting()
        do {
            return try await store.all()
        } catch {
            rest()
            throw error
        }
    }

    public func close() async {
        await store.close()
    }

    /// A failure of the server: leave it alone for ``pause``. (A refusal while resting is
    /// no failure of the server, and does not make the pause longer.)
    private func rest() {
        restingUntil = ContinuousClock.now + Self.pause
    }

    private func refuseWhileResting() throws(OrdersProblem) {
        guard let restingUntil, ContinuousClock.now < restingUntil else { return }
        throw OrdersProblem("The order server did not answer just now. Orders will try again in a moment.")
    }
}
