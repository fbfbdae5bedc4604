import FaultPoints
import Testing

/// Scoped faults: armed for one task and the tasks it starts, never for anyone else.
@Suite struct FaultScopeTests {
    static let save = FaultPoint("store/notes/save")
    static let fetch = FaultPoint("store/notes/fetch")

    func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let fault as InjectedFault {
            return fault.message
        } catch {
            return "\(error)"
        }
    }

    @Test func aScopedThrowFiresInsideItsScopeOnlyAsManyTimesAsAsked() async throws {
        #expect(message { try Self.save.hit() } == nil)
        await withFaults([.throw(at: "store/notes/save", message: "disk full", after: 1, times: 2)]) {
            #expect(message { try Self.save.hit() } == nil, "after: 1 lets the first hit through")
            #expect(message { try Self.save.hit() } == "disk full")
            await #expect(throws: InjectedFault.self) { try await Self.save.hit() }
            #expect(message { try Self.save.hit() } == nil, "times: 2 is spent")
            #expect(message { try Self.fetch.hit() } == nil, "another point is not armed")
            #expect(FaultScope.current?.firings.map(\.hit) == [2, 3])
        }
        #expect(message { try Self.save.hit() } == nil, "the scope is over")
    }

    @Test func aWildcardAndANestedScopeAddUp() {
        withFaults([.throw(at: "store/notes/*", message: "outer")]) {
            #expect(message { try Self.fetch.hit() } == "outer")
            withFaults([.throw(at: "store/notes/save", message: "inner")]) {
                #expect(message { try Self.save.hit() } == "outer", "the outer arming comes first")
                #expect(FaultScope.current?.firings.count == 1, "the inner scope's own")
            }
            #expect(FaultScope.current?.firings.count == 2, "the outer sees what fired inside it")
        }
    }

    @Test func childTasksSeeTheScopeAndDetachedOnesDoNot() async {
        await withFaults([.throw(at: "store/notes/save", message: "scoped")]) {
            let child = await Task { self.message { try Self.save.hit() } }.value
            #expect(child == "scoped")
            let detached = await Task.detached { self.message { try Self.save.hit() } }.value
            #expect(detached == nil)
        }
    }

    @Test func aScopeComesBeforeWhatIsArmedForTheProcess() {
        let registry = FaultRegistry()
        registry.arm(Self.save.name) { _ in .fail(message: "process-wide") }
        withFaults([.throw(at: "store/notes/save", message: "scoped")]) {
            guard case let .fire(actions, _, _) = registry.fire(Self.save), case let .fail(text)? = actions.first else {
                Issue.record("nothing fired")
                return
            }
            #expect(text == "scoped")
        }
        guard case let .fire(actions, _, _) = registry.fire(Self.save), case let .fail(text)? = actions.first else {
            Issue.record("the process-wide arming did not fire")
            return
        }
        #expect(text == "process-wide")
    }

    /// 200 tests at once, each with its own faults on a point they all hit: each sees
    /// only its own, every time.
    @Test(arguments: 0..<200)
    func parallelScopesNeverSeeEachOther(_ index: Int) async throws {
        let own = FaultPoint("test/own/\(index)")
        let neighbour = FaultPoint("test/own/\((index + 1) % 200)")
        await withFaults([.throw(at: "test/shared", message: "\(index)"), .throw(at: own.name, message: "own \(index)")]) {
            for _ in 0..<10 {
                #expect(message { try FaultPoint("test/shared").hit() } == "\(index)")
                #expect(message { try own.hit() } == "own \(index)")
                #expect(message { try neighbour.hit() } == nil)
                await Task.yield()
            }
            #expect(FaultScope.current?.firings.count == 20)
        }
    }
}
