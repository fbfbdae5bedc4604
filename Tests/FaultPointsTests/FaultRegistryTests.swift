import FaultPoints
import Testing

/// The registry's policy-free bookkeeping: which armed name a hit matches, how hits
/// are counted, what is recorded. On private registries: the shared one belongs to the
/// app tests that run beside these (fault points are process-global).
@Suite struct FaultRegistryTests {
    static let fetch = FaultPoint("store/favorites/fetch")
    static let save = FaultPoint("store/favorites/save")
    static let quiz = FaultPoint("store/quiz/statistics/save")

    func fires(_ registry: FaultRegistry, _ point: FaultPoint) -> String? {
        guard case let .fire(actions, _, _) = registry.fire(point), case let .fail(message)? = actions.last else { return nil }
        return message
    }

    @Test func anExactNameBeatsAnyWildcard() {
        let registry = FaultRegistry()
        registry.arm("store/*") { _ in .fail(message: "store") }
        registry.arm("store/favorites/fetch") { _ in .fail(message: "exact") }
        #expect(fires(registry, Self.fetch) == "exact")
        #expect(fires(registry, Self.save) == "store")
    }

    @Test func theLongestWildcardWinsWhateverTheOrderArmed() {
        for order in [["store/*", "store/favorites/*"], ["store/favorites/*", "store/*"]] {
            let registry = FaultRegistry()
            for pattern in order { registry.arm(pattern) { _ in .fail(message: pattern) } }
            #expect(fires(registry, Self.fetch) == "store/favorites/*", "armed in the order \(order)")
            #expect(fires(registry, Self.quiz) == "store/*")
            registry.disarm("store/favorites/*")
            #expect(fires(registry, Self.fetch) == "store/*", "disarming a wildcard falls back to the next")
            registry.disarm("store/*")
            #expect(fires(registry, Self.fetch) == nil)
        }
    }

    @Test func aWildcardIsAPrefixNotAPattern() {
        let registry = FaultRegistry()
        registry.arm("store/fav*") { _ in .fail(message: "prefix") }
        #expect(fires(registry, Self.fetch) == "prefix")
        #expect(fires(registry, FaultPoint("stor")) == nil)
        #expect(fires(registry, FaultPoint("other/store/favorites")) == nil)
    }

    @Test func hitsAreCountedPerPointAndTheDecisionHearsTheCount() {
        let registry = FaultRegistry()
        registry.arm("store/favorites/fetch") { hit in hit == 3 ? .fail(message: "third") : nil }
        #expect(fires(registry, Self.fetch) == nil)
        #expect(fires(registry, Self.fetch) == nil)
        #expect(fires(registry, Self.fetch) == "third")
        #expect(fires(registry, Self.fetch) == nil)
        #expect(registry.hitCount(Self.fetch.name) == 4)
        // Another point's hits count while anything is armed; they do not fire.
        #expect(fires(registry, Self.save) == nil)
        #expect(registry.hitCount(Self.save.name) == 1)
        #expect(registry.firings.map { "\($0.point) \($0.id) \($0.hit) \($0.action)" } == ["store/favorites/fetch store/favorites/fetch 3 fail"])
    }

    @Test func resetForgetsEverything() {
        let registry = FaultRegistry()
        registry.arm("store/*") { _ in .fail(message: "x") }
        _ = registry.fire(Self.fetch)
        registry.setCounting(true)
        registry.reset()
        #expect(registry.armedPoints.isEmpty)
        #expect(registry.hitCount(Self.fetch.name) == 0)
        #expect(registry.firings.isEmpty)
        #expect(fires(registry, Self.fetch) == nil, "a wildcard armed before the reset is gone too")
    }

    @Test func anOutcomeCarriesWhatInjectedIt() {
        let registry = FaultRegistry()
        registry.arm(Self.save, always: .fail(message: "no space"))
        do {
            try registry.fire(Self.save).performSync()
            Issue.record("a fired .fail did not throw")
        } catch let fault as InjectedFault {
            #expect(fault.point == Self.save.name)
            #expect(fault.hit == 1)
            #expect(fault.description == "injected fault at store/favorites/save (hit 1): no space")
        } catch {
            Issue.record("not an InjectedFault: \(error)")
        }
    }
}
