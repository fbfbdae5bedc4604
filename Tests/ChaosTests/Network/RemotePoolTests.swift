@testable import Chaos
import ChaosTarget
import Foundation
import Testing

/// Remotes started ahead of the case that takes them, and ended behind it (``RemotePool``):
/// a case gets a server of its own that already listens, and nothing of the pool is left
/// once it is shut down.
@Suite struct RemotePoolTests {
    /// The reference app's registry, as the built `chaos` starts it.
    static let registry = Remote.command("registry", executable: ChaosExecutable.path,
                                         arguments: ["registry", "--port", Remote.portPlaceholder])

    @Test func aCaseTakesAServerStartedAheadAndItsEndRemovesItAndItsFolder() throws {
        let folder = try TemporaryFolder()
        let mark = "remote-pool-test-\(UUID().uuidString.prefix(8))"
        let pool = RemotePool(folder: folder.url, mark: mark)
        defer { pool.shutDown() }
        #expect(pool.take(Self.registry) == nil, "the first case finds none ready: it starts its own")
        pool.settle()
        #expect(pool.readyCount(of: Self.registry) == 1, "one was started ahead of the next case")
        let server = try #require(pool.take(Self.registry))
        #expect(TCPProbe.accepts(host: server.host, port: server.port, until: .now + .seconds(5)), "it already listens")
        pool.settle()
        let own = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(own.count == 2, "its folder and the next one's: \(own)")
        pool.retire(server)
        pool.settle()
        #expect(server.hasEnded)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 1, "its folder went with it")
        #expect(running(marked: mark).count == 1, "the one started ahead of the next case")
        pool.shutDown()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "the one left ready is ended with its folder")
        #expect(running(marked: mark).isEmpty)
    }

    @Test func aServerThatEndedWhileReadyIsNotHandedToACase() throws {
        let folder = try TemporaryFolder()
        let mark = "remote-pool-test-\(UUID().uuidString.prefix(8))"
        let pool = RemotePool(folder: folder.url, mark: mark)
        defer { pool.shutDown() }
        _ = pool.take(Self.registry)
        pool.settle()
        let ready = running(marked: mark)
        try #require(ready.count == 1)
        for entry in ready {
            kill(entry.pid, SIGKILL)
            #expect(SpawnedChildren.awaitEnd(of: entry.pid, deadline: .now + .seconds(10)))
        }
        #expect(pool.take(Self.registry) == nil, "an ended server is retired, not handed over")
        pool.settle()
        #expect(pool.readyCount(of: Self.registry) == 1, "and the next one started ahead")
    }

    /// A remote that never listens fails its case in its own words (started by the
    /// case), is started ahead once and not again, and does not hold the pool's end
    /// for the 30 s a start may wait.
    @Test func aRemoteThatNeverListensIsStartedAheadOnceAndDoesNotHoldTheEnd() throws {
        let folder = try TemporaryFolder()
        let mark = "remote-pool-test-\(UUID().uuidString.prefix(8))"
        let silent = Remote.command("silent", executable: "/bin/sleep", arguments: ["60"])
        let pool = RemotePool(folder: folder.url, mark: mark)
        #expect(pool.take(silent) == nil)
        let started = ContinuousClock.now
        pool.shutDown()
        #expect(ContinuousClock.now - started < .seconds(10), "the start under way gave up when the pool ended")
        #expect(running(marked: mark).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        let second = RemotePool(folder: folder.url, mark: mark)
        do {
            _ = try NetworkLab.start([silent], scratch: folder.url, mark: mark, deadline: .now + .milliseconds(300), pool: second)
            Issue.record("a remote that never listens started")
        } catch {
            if case let .harness(message) = error {
                #expect(message.contains("the remote 'silent' did not listen"), "the case's own start says so: \(message)")
            } else {
                Issue.record("\(error)")
            }
        }
        second.shutDown()
        #expect(running(marked: mark).isEmpty)
    }

    @Test func aRemoteAtAnAddressIsNeverPooled() throws {
        let folder = try TemporaryFolder()
        let pool = RemotePool(folder: folder.url, mark: "remote-pool-test")
        defer { pool.shutDown() }
        let address = Remote.address("db", host: "127.0.0.1", port: 9)
        #expect(pool.take(address) == nil)
        pool.settle()
        #expect(pool.readyCount(of: address) == 0)
    }

    /// A sweep whose cases take remotes started ahead gives the verdicts of one whose
    /// cases start their own, trial for trial, and leaves no server behind (a pooled
    /// server's folder goes only once its process has ended).
    @Test(arguments: [("family-join-by-code", "hardened"), ("family-create-offline", "legacy")])
    func remotesStartedAheadGiveTheVerdictsOfRemotesStartedByEachCase(scenario: String, variant: String) throws {
        let scratch = try TemporaryFolder()
        let options = RunOptions(target: try TargetSelection.reference(variant: variant), seed: nil, keepScratch: false,
                                 scratchRoot: scratch.url)
        var sweeper = Sweeper(scenario: try ScenarioLoader.resolve(scenario, in: .reference), options: options, kind: .io, limit: 30, seeds: 1)
        sweeper.jobs = 2
        let (a, b) = (sweeper.run(), sweeper.run(forkServers: true, remotePool: false, images: true))
        #expect(a.trials == 30 && b.trials == 30)
        #expect(a.verdicts == b.verdicts)
        #expect(a.failures == b.failures, "\(a.failures) \(b.failures)")
        #expect(a.pointsCovered == b.pointsCovered)
        #expect(a.failedReports.map(\.reproduce) == b.failedReports.map(\.reproduce))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty, "nothing of either sweep is left")
    }
}

extension RemotePool {
    /// Waits for the starts and ends under way (a test's event to wait on).
    func settle() {
        work.wait()
    }

    /// How many servers of `remote` are ready to be taken.
    func readyCount(of remote: Remote) -> Int {
        state.withLock { $0.ready[Self.key(remote)]?.count ?? 0 }
    }
}

/// The processes that carry `mark` (the pool's) and have not ended.
private func running(marked mark: String) -> [ProcessEntry] {
    ProcessTable.entries().filter { !$0.isZombie && ProcessTable.environmentValue(of: $0.pid, named: ProcessLeftovers.markVariable) == mark }
}
