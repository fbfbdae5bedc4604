import Foundation
import Testing
@testable import SystemUnderTest

/// Seed 001's join by code (`fetchFamilyWithFallback`, `fetchFamilySafely`), its
/// `validateDatabaseState()` before a write, its rate limit, and the backoff as lived.
extension SystemUnderTestSuite {
    @Suite struct FamilyJoinAndLimit {
        @Test @MainActor func joiningAFamilyOnTheRemoteKeepsItOnThisDevice() async throws {
            let directory = try TemporaryAppDirectory()
            let remote = FakeFamilyRemote(families: [RemoteFamily(code: "K7MPQ2", name: "Haddad", clientID: "other-1")])
            let harness = try FamilyHarness(configuration: directory.configuration, remote: remote)
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(await screen.join(code: " k7mpq2 "))
            #expect(screen.joined?.source == .remote && screen.joined?.family.name == "Haddad")
            #expect(harness.flow.pendingCount() == 0, "a joined family is on the remote already")
            #expect(try await harness.data.families().map(\.code) == ["K7MPQ2"])
        }

        @Test @MainActor func offlineAFamilyOnThisDeviceIsFoundAndAnUnknownCodeIsToldApart() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration)
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(await screen.create(name: "Rivera"))
            let code = try #require(screen.family?.code)
            #expect(await screen.join(code: "ZZZ999") == false)
            #expect(screen.joinError == .familyNotFound && screen.joinError?.isRetryable == false)
            harness.remote.setDown(.unreachable("connection refused"))
            #expect(await screen.join(code: code))
            #expect(screen.joined?.source == .thisDevice)
            #expect(await screen.join(code: "ZZZ999") == false)
            #expect(screen.joinError?.kind == "cannot-check-code" && screen.joinError?.isRetryable == true)
            #expect(await screen.join(code: "not a code") == false)
            #expect(screen.joinError == .familyNotFound)
        }

        @Test @MainActor func aReadOnlyStoreIsRefusedBeforeACodeIsDrawn() async throws {
            let directory = try TemporaryAppDirectory()
            do {
                let harness = try FamilyHarness(configuration: directory.configuration)
                #expect(await FamilyCreationViewModel(flow: harness.flow).create(name: "Novak"))
                harness.store.close()
            }
            #expect(chmod(directory.configuration.storeURL.path, 0o444) == 0)
            let harness = try FamilyHarness(configuration: directory.configuration)
            #expect(harness.store.health.mode == .readOnly)
            let lookups = harness.remote.state.withLock(\.lookups)
            let screen = FamilyCreationViewModel(flow: harness.flow)
            #expect(await screen.create(name: "Adeyemi") == false)
            #expect(screen.error?.kind == "database-unavailable" && !screen.canRetry)
            #expect(screen.history.contains(.generatingCode) == false)
            #expect(harness.remote.state.withLock(\.lookups) == lookups, "no code was drawn")
        }

        @Test @MainActor func theFourthCreationInAWindowIsRefusedAndAnotherScreenSharesTheLimit() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration)
            let limit = FamilyCreationLimit(maximum: 3, window: .seconds(60))
            let first = FamilyCreationViewModel(flow: harness.flow, limit: limit)
            for name in ["A", "B"] { #expect(await first.create(name: name)) }
            let second = FamilyCreationViewModel(flow: harness.flow, limit: limit)
            #expect(await second.create(name: "C"))
            #expect(await second.create(name: "D") == false)
            #expect(second.error == .rateLimited && !second.canRetry)
            #expect(try await harness.data.families().count == 3)
            // A window that has passed allows again.
            let brief = FamilyCreationLimit(maximum: 1, window: .zero)
            brief.recordCreation()
            #expect(brief.allowsAnother)
        }

        @Test func theSyncKeepsTheWaitsItLivedAndTheyGrow() async throws {
            let directory = try TemporaryAppDirectory()
            let harness = try FamilyHarness(configuration: directory.configuration)
            // Every call is cut mid-way (a transient error): each attempt waits longer first.
            harness.remote.setDown(.interrupted("connection reset by peer"))
            let family = try #require(await { () async throws -> Family? in
                if case let .created(family) = try await harness.data.create(name: "Haddad", code: FamilyCode("K7MPQ2")!) { return family }
                return nil
            }())
            _ = await harness.sync.sync(family)
            let waits = await harness.sync.lastWaits
            #expect(waits == harness.sleeper.recorded)
            #expect(waits.count == 3 && zip(waits, waits.dropFirst()).allSatisfy { $0 <= $1 } && waits[0] < waits[2], "\(waits)")
        }
    }

    @Suite struct HelpLinkAndRetryLoad {
        @Test func anInvalidHelpSiteIsAnInvalidConfigurationNotATrap() throws {
            #expect(try HelpLink.url(site: HelpLink.defaultSite).absoluteString == "https://help.example.com/spelling-help")
            for site in ["", "spelling help.example.com", "[::1"] {
                #expect(throws: VocabularyError.invalidConfiguration(setting: "help site")) { try HelpLink.url(site: site) }
            }
        }

        /// The passing cause itself (an I/O error at launch, cleared) is the catalog's
        /// `visits-retry-load`, through the fault VFS; here, which healths are retried.
        @Test @MainActor func retryLoadRetriesOnlyAStoreLeftUntouchedAndKeepsAnOpenOne() async throws {
            let health = StoreHealth(mode: .inMemory, loadError: "disk I/O error")
            #expect(ChaosApp.mayRetry(health))
            var damaged = health
            damaged.quarantinedFiles = ["app.sqlite"]
            #expect(!ChaosApp.mayRetry(damaged))
            var newer = StoreHealth(mode: .readOnly)
            newer.newerSchema = true
            #expect(!ChaosApp.mayRetry(newer))
            let directory = try TemporaryAppDirectory()
            try await seedFavorites(3, in: directory.configuration)
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            let before = app.favorites
            #expect(app.retryLoad() == true, "a store that opened stays open")
            #expect(app.favorites === before, "nothing was reloaded")
            #expect(await app.favorites.load())
            #expect(app.favorites.favorites.count == 3)
            app.stop()
        }
    }
}
