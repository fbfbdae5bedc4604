import Foundation
import Synchronization
@testable import SystemUnderTest

/// A remote family registry in memory, for the family feature's tests without a
/// network: it can be offline, lose answers, or fail a number of times first.
final class FakeFamilyRemote: FamilyRemote {
    struct State {
        var families: [RemoteFamily] = []
        var registrations = 0
        var lookups = 0
        /// Every call fails with this while set.
        var down: FamilyRemoteError?
        /// The next registrations are done, but their answers are lost.
        var answersToLose = 0
    }

    let state = Mutex(State())

    init(families: [RemoteFamily] = []) {
        state.withLock { $0.families = families }
    }

    func lookup(_ code: String) async throws(FamilyRemoteError) -> RemoteFamily? {
        let result: Result<RemoteFamily?, FamilyRemoteError> = state.withLock { state in
            state.lookups += 1
            if let down = state.down { return .failure(down) }
            return .success(state.families.first { $0.code == code })
        }
        return try result.get()
    }

    func register(_ family: RemoteFamily) async throws(FamilyRemoteError) -> RemoteRegistration {
        let result: Result<RemoteRegistration, FamilyRemoteError> = state.withLock { state in
            state.registrations += 1
            if let down = state.down { return .failure(down) }
            if state.families.contains(where: { $0.code == family.code }) { return .success(.codeTaken) }
            state.families.append(family)
            if state.answersToLose > 0 {
                state.answersToLose -= 1
                return .failure(.interrupted("connection reset by peer"))
            }
            return .success(.created)
        }
        return try result.get()
    }

    var families: [RemoteFamily] { state.withLock(\.families) }
    var registrations: Int { state.withLock(\.registrations) }

    func setDown(_ error: FamilyRemoteError?) { state.withLock { $0.down = error } }
    func loseAnswers(_ count: Int) { state.withLock { $0.answersToLose = count } }
}

/// Records the waits it is asked for, and does not wait.
final class RecordingSleeper: Sendable {
    private let waits = Mutex<[Duration]>([])
    var recorded: [Duration] { waits.withLock { $0 } }
    var sleep: @Sendable (Duration) async -> Void {
        { [self] duration in self.waits.withLock { $0.append(duration) } }
    }
}

/// The hardened family services over a real store, with a fake remote and no waits.
struct FamilyHarness {
    let store: AppStore
    let remote: FakeFamilyRemote
    let sleeper = RecordingSleeper()
    let data: FamilyDataService
    let generator: FamilyCodeGenerator
    let sync: FamilySyncService
    let flow: FamilyCreationService

    init(configuration: StoreConfiguration, remote: FakeFamilyRemote = FakeFamilyRemote(), seed: UInt64 = 1,
         generator: FamilyCodeGenerator? = nil) throws {
        store = try AppStore.launch(configuration)
        self.remote = remote
        data = FamilyDataService(store: store, deviceID: "device")
        self.generator = generator ?? FamilyCodeGenerator(seed: seed)
        sync = FamilySyncService(data: data, remote: remote, generator: self.generator,
                                 backoff: FamilyBackoff(seed: seed), sleep: sleeper.sleep)
        flow = FamilyCreationService(data: data, remote: remote, generator: self.generator, syncService: sync)
    }
}
