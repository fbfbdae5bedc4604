import Foundation
import Testing
@testable import SystemUnderTest

/// Seed 001's creation flow on a real store, with a remote in memory: the state
/// machine, the offline path and its queue, retries with backoff, and concurrency.
extension SystemUnderTestSuite {
    @Suite struct FamilyCreation {
        @Test @MainActor func happyPathWalksTheStateMachineAndSyncsOnce() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration)
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(screen.state == .idle)
            #expect(await screen.create(name: "Rivera"))
            #expect(screen.history == [.validating, .generatingCode, .creatingLocally, .syncing, .completed])
            let family = try #require(screen.family)
            #expect(FamilyCode.isValid(family.code))
            #expect(family.clientID == "device-\(family.id)")
            #expect(!screen.isLocalOnly && screen.notice == nil)
            #expect(harness.remote.families == [RemoteFamily(family)])
            #expect(harness.remote.registrations == 1)
            #expect(harness.flow.pendingCount() == 0)
        }

        @Test @MainActor func aBadNameFailsAtValidationAndIsNotRetryable() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration)
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(await screen.create(name: "   ") == false)
            #expect(screen.history == [.validating, .failed(.validationFailed)])
            #expect(screen.errorMessage == "Please enter a family name of 1 to 50 characters.")
            #expect(!screen.canRetry)
            #expect(harness.remote.registrations == 0)
        }

        @Test @MainActor func offlineCreatesLocallyQueuesAndSyncsOnceBack() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration)
            harness.remote.setDown(.unreachable("connection refused"))
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(await screen.create(name: "Okafor"))
            #expect(screen.state == .completed)
            #expect(screen.isLocalOnly)
            #expect(screen.notice?.contains("saved on this device") == true)
            #expect(harness.flow.pendingCount() == 1)
            #expect(harness.remote.registrations == 0, "an unreachable remote is not hammered")

            // Still offline: the queue stays, with a plain retryable message.
            #expect(await screen.syncPending() == false)
            #expect(screen.syncError == .networkUnavailable(underlying: "connection refused"))
            #expect(screen.syncError?.isRetryable == true)
            #expect(harness.sleeper.recorded.isEmpty, "unreachable: no backoff, no waiting")

            harness.remote.setDown(nil)
            #expect(await screen.syncPending())
            #expect(harness.flow.pendingCount() == 0)
            #expect(!screen.isLocalOnly && screen.syncError == nil)
            #expect(harness.remote.families.map(\.code) == [try #require(screen.family).code])
            #expect(await screen.syncPending(), "an empty queue syncs nothing twice")
            #expect(harness.remote.families.count == 1)
        }

        @Test @MainActor func theQueueSurvivesARelaunch() async throws {
            let directory = try TemporaryAppDirectory()
            do {
                let harness = try FamilyHarness(configuration: directory.configuration)
                harness.remote.setDown(.unreachable("down"))
                #expect(await FamilyCreationViewModel(flow: harness.flow).create(name: "Haddad"))
                harness.store.close()
            }
            let remote = FakeFamilyRemote()
            let harness = try FamilyHarness(configuration: directory.configuration, remote: remote)
            let screen = FamilyCreationViewModel(flow: harness.flow, pendingAtLaunch: harness.flow.pendingCount())
            #expect(screen.isLocalOnly, "the app says at launch that a family waits")
            #expect(await screen.syncPending())
            #expect(remote.families.map(\.name) == ["Haddad"])
        }

        @Test @MainActor func aLostAnswerIsRetriedWithBackoffAndRegisteredOnce() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration, seed: 5)
            harness.remote.loseAnswers(1)
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(await screen.create(name: "Nguyen"))
            let family = try #require(screen.family)
            #expect(harness.remote.families == [RemoteFamily(family)], "there once, not twice")
            #expect(harness.remote.registrations == 2, "the retry found its own registration (409, same client id)")
            #expect(harness.sleeper.recorded == [FamilyBackoff(seed: 5).delays(familyID: family.id)[0]])
            #expect(harness.flow.pendingCount() == 0)
            #expect(!screen.isLocalOnly)
        }

        @Test @MainActor func retriesAreBoundedAndLeaveTheFamilyQueued() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration, seed: 3)
            harness.remote.setDown(.interrupted("HTTP 503"))
            let screen = FamilyCreationViewModel(flow: harness.flow)
            // Lookups fail too: the code is checked locally and the family waits.
            #expect(await screen.create(name: "Rossi"))
            #expect(screen.isLocalOnly)
            #expect(await screen.syncPending() == false)
            let family = try #require(screen.family)
            #expect(harness.remote.registrations == FamilyBackoff(seed: 3).maxAttempts)
            #expect(harness.sleeper.recorded == FamilyBackoff(seed: 3).delays(familyID: family.id))
            #expect(screen.syncError == .syncFailed(underlying: "interrupted(\"HTTP 503\")"))
        }

        @Test @MainActor func someoneElsesCodeIsReplacedAtSync() async throws {
            let directory = try TemporaryAppDirectory()
            let generator = FamilyCodeGenerator(seed: 11)
            let taken = FamilyCodeGenerator(seed: 11).next()
            // The remote did not answer when the code was drawn; another device took it since.
            let remote = FakeFamilyRemote(families: [RemoteFamily(code: taken.text, name: "Other", clientID: "other-1")])
            remote.setDown(.unreachable("down"))
            let harness = try FamilyHarness(configuration: directory.configuration, remote: remote, generator: generator)
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(await screen.create(name: "Mine"))
            #expect(screen.family?.code == taken.text)
            remote.setDown(nil)
            #expect(await screen.syncPending())
            let stored = try await harness.data.families()
            #expect(stored.count == 1 && stored[0].code != taken.text)
            #expect(remote.families.map(\.clientID).sorted() == ["device-1", "other-1"])
        }

        @Test @MainActor func twoCreationsAtOnceGetTwoCodes() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration)
            let first = FamilyCreationViewModel(flow: harness.flow)
            let second = FamilyCreationViewModel(flow: harness.flow)
            async let a = first.create(name: "One")
            async let b = second.create(name: "Two")
            #expect(await [a, b] == [true, true])
            let codes = [first.family?.code, second.family?.code].compactMap { $0 }
            #expect(Set(codes).count == 2)
            #expect(Set(harness.remote.families.map(\.code)) == Set(codes))
        }

        @Test @MainActor func theUniqueConstraintSettlesARaceForOneCode() async throws {
            // Two generators on the same seed draw the same codes: only the store's
            // UNIQUE constraint keeps the two creations apart.
            let directory = try TemporaryAppDirectory()
            let store = try AppStore.launch(directory.configuration)
            let data = FamilyDataService(store: store, deviceID: "device")
            let code = try #require(FamilyCode("ABC234"))
            async let a = data.create(name: "One", code: code)
            async let b = data.create(name: "Two", code: code)
            let outcomes = try await [a, b]
            #expect(outcomes.filter { if case .created = $0 { true } else { false } }.count == 1)
            #expect(outcomes.contains(.codeTaken))

            let remote = FakeFamilyRemote()
            let flows = (0..<2).map { _ in
                let generator = FamilyCodeGenerator(seed: 77)
                let sync = FamilySyncService(data: data, remote: remote, generator: generator, backoff: FamilyBackoff(seed: 1))
                return FamilyCreationService(data: data, remote: remote, generator: generator, syncService: sync)
            }
            let first = FamilyCreationViewModel(flow: flows[0])
            let second = FamilyCreationViewModel(flow: flows[1])
            async let x = first.create(name: "Three")
            async let y = second.create(name: "Four")
            #expect(await [x, y] == [true, true])
            #expect(first.family?.code != second.family?.code)
            #expect(remote.families.count == 2)
            store.close()
        }

        @Test @MainActor func aStoreThatCannotSaveFailsWithARetry() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration)
            // Every write of the queue fails (the store passes validateDatabaseState: its tables are there).
            try await harness.store.writer.write {
                try $0.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON family_pending_sync BEGIN SELECT RAISE(ABORT, 'refused'); END")
            }
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(await screen.create(name: "Lee") == false)
            #expect(screen.state.wireName == "failed")
            #expect(screen.errorMessage == "Your family couldn't be saved on this device. Please try again.")
            #expect(screen.canRetry)
            #expect(try await harness.data.families().isEmpty, "no family without its place in the queue")
            #expect(await screen.retry() == false)
            #expect(await screen.retry() == false)
            #expect(await screen.retry() == false)
            #expect(await screen.retry() == false)
            #expect(screen.error == .maxRetriesExceeded)
            #expect(!screen.canRetry)
        }
    }
}
