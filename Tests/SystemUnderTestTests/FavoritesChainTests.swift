import Foundation
import FaultPoints
import Testing
@testable import SystemUnderTest

/// Seed 002: an error at the bottom of the favourites chain reaches the view model
/// as `.error` with the seed's user message, and a bounded retry recovers.
extension SystemUnderTestSuite {
    @Suite struct FavoritesChain {
        @Test @MainActor func fetchFailureReachesViewModelAndRetryRecovers() async throws {
            let directory = try TemporaryAppDirectory()
            try await seedFavorites(3, in: directory.configuration)
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }

            FaultRegistry.shared.arm(.favoritesFetch, always: .fail(message: "disk on fire"))
            #expect(await app.favorites.load() == false)
            #expect(app.favorites.state == .error)
            #expect(app.favorites.errorMessage == "Unable to load favorites. Please try again.")
            #expect(app.favorites.recoverySuggestion == "Try refreshing or restarting the app.")
            #expect(app.favorites.canRetry)

            FaultRegistry.shared.disarm(FaultPoint.favoritesFetch.name)
            #expect(await app.favorites.retry())
            #expect(app.favorites.state == .okey)
            #expect(app.favorites.errorMessage == nil)
            #expect(app.favorites.favorites.map(\.id) == [1, 2, 3])
        }

        @Test @MainActor func saveFailureIsShownNotSwallowedAndRetrySaves() async throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }

            FaultRegistry.shared.arm(.favoritesSave, always: .fail(message: "no space"))
            #expect(await app.favorites.addFavorite(.numbered(42)) == false)
            #expect(app.favorites.state == .error)
            #expect(app.favorites.errorMessage == "Failed to save changes. Please try again.")
            #expect(app.favorites.recoverySuggestion == "Check if you have enough storage space, then try again.")

            FaultRegistry.shared.disarm(FaultPoint.favoritesSave.name)
            #expect(await app.favorites.retry())
            #expect(await storedIDs(app) == [42])
        }

        @Test @MainActor func retryIsBounded() async throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }

            FaultRegistry.shared.arm(.favoritesFetch, always: .fail(message: "still broken"))
            #expect(await app.favorites.load() == false)
            for _ in 0..<app.favorites.maxRetries { #expect(await app.favorites.retry() == false) }
            #expect(app.favorites.canRetry == false)
            #expect(await app.favorites.retry() == false)
            #expect(app.favorites.errorMessage == PresentedError.retriesExhaustedMessage)
            #expect(FaultRegistry.shared.hitCount(FaultPoint.favoritesFetch.name) == 1 + app.favorites.maxRetries)
        }

        @Test @MainActor func surfacedMessagesCarryNoJargon() {
            let cases: [DatabaseError] = [
                .fetchFailed(operation: "favorites", underlying: "SQLITE_IOERR"), .saveFailed(underlying: "x"),
                .deleteFailed(operation: "favorite", underlying: "x"), .predicateFailed(underlying: "x"),
                .containerInitializationFailed(underlying: "x"), .readOnly(underlying: "x"),
            ]
            let jargon = ["SQLITE", "errno", "nil", "Optional(", "Error", "GRDB"]
            for error in cases {
                for word in jargon {
                    #expect(!error.userMessage.contains(word))
                    #expect(!error.recoverySuggestion.contains(word))
                }
            }
        }
    }
}
