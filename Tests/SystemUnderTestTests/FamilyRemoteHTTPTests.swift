import Chaos
import Foundation
import Testing
@testable import SystemUnderTest

/// The app's HTTP client against the real registry and fault proxy on loopback: what
/// each kind of network failure looks like to the app, and so what it does about it
/// (unreachable: stop and queue; interrupted: retry).
extension SystemUnderTestSuite {
    @Suite struct FamilyRemoteHTTP {
        private func remote(_ lab: NetworkLab, timeout: Duration = .seconds(2)) throws -> HTTPFamilyRemote {
            HTTPFamilyRemote(baseURL: try #require(URL(string: lab.remoteURL)), timeout: timeout)
        }

        @Test func looksUpAndRegistersThroughTheProxy() async throws {
            let lab = try NetworkLab.start()
            defer { lab.stop() }
            let client = try remote(lab)
            let family = RemoteFamily(code: "ABC234", name: "Rivera", clientID: "d-1")
            #expect(try await client.lookup("ABC234") == nil)
            #expect(try await client.register(family) == .created)
            #expect(try await client.lookup("ABC234") == family)
            #expect(try await client.register(RemoteFamily(code: "ABC234", name: "Other", clientID: "d-2")) == .codeTaken)
            #expect(lab.registry.registry.families.count == 1)
        }

        @Test func aRefusedConnectionIsUnreachable() async throws {
            let lab = try NetworkLab.start()
            defer { lab.stop() }
            try lab.arm(NetworkDownFault(), trigger: Trigger(), seed: 1)
            let client = try remote(lab)
            do throws(FamilyRemoteError) {
                _ = try await client.lookup("ABC234")
                Issue.record("a refused connection answered")
            } catch {
                guard case .unreachable = error else { Issue.record("refused → \(error)"); return }
            }
        }

        @Test func aSilentRemoteIsUnreachableWithinTheTimeout() async throws {
            let lab = try NetworkLab.start()
            defer { lab.stop() }
            try lab.arm(BlackholeFault(), trigger: Trigger(), seed: 1)
            let client = try remote(lab, timeout: .seconds(1))
            let clock = ContinuousClock()
            let start = clock.now
            do throws(FamilyRemoteError) {
                _ = try await client.lookup("ABC234")
                Issue.record("a black hole answered")
            } catch {
                guard case .unreachable = error else { Issue.record("black hole → \(error)"); return }
            }
            #expect(clock.now - start >= .milliseconds(900), "it waited for its timeout")
            #expect(clock.now - start < .seconds(5), "bounded by the request timeout, not the case's")
        }

        @Test func aResetAnswerIsInterruptedAndTheRemoteDidTheWork() async throws {
            let lab = try NetworkLab.start()
            defer { lab.stop() }
            try lab.arm(ResetPeerFault(afterBytes: 0), trigger: Trigger(times: 1), seed: 1)
            let client = try remote(lab)
            do throws(FamilyRemoteError) {
                _ = try await client.register(RemoteFamily(code: "ABC234", name: "Rivera", clientID: "d-1"))
                Issue.record("a reset answer arrived")
            } catch {
                #expect(error.isTransient, "reset → \(error)")
            }
            #expect(lab.registry.registry.families.count == 1)
        }

        /// Cut in the body. (Cut inside the header block, FoundationNetworking itself
        /// traps on Swift 6.3 — "Transfer completed, but there's no response",
        /// swift-corelibs-foundation#5285 — so no app on it survives that; see SCENARIOS.md.)
        @Test func aCutAnswerIsInterrupted() async throws {
            let lab = try NetworkLab.start()
            defer { lab.stop() }
            // The 404's head is about 100 bytes; its body is cut.
            try lab.arm(LimitDataFault(bytes: 104), trigger: Trigger(), seed: 1)
            let client = try remote(lab)
            do throws(FamilyRemoteError) {
                _ = try await client.lookup("ABC234")
                Issue.record("a cut answer was taken whole")
            } catch {
                #expect(error.isTransient, "cut → \(error)")
            }
        }
    }
}
