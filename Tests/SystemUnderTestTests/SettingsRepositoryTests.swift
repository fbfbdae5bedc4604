import Foundation
import FaultPoints
import GRDB
import Testing
@testable import SystemUnderTest

/// The settings repository behind its breaker: a reset or a store error opens it, the
/// file serves, a new context closes it, and no setting is ever lost.
extension SystemUnderTestSuite {
    @Suite struct SettingsRepositoryBreaker {
        /// The values the store itself holds, read below the repository.
        static func stored(_ store: AppStore) throws -> [String: String] {
            try store.writer.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM setting").map {
                    ($0["key"] as String, $0["value"] as String)
                })
            }
        }

        @Test @MainActor func resetOpensTheBreakerTheFileServesAndANewContextMergesBack() throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            let store = try #require(app.store)
            let fallback = SettingsFallbackFile(directory: directory.url)
            let repository = SettingsRepository(store: store, fallback: fallback)

            #expect(try repository.set("dark", for: .colorScheme) == .stored)
            #expect(fallback.read().values == ["color-scheme": "dark"], "the file mirrors the store while closed")

            // The context is reset the next time it is used (what `reset-context` does).
            FaultRegistry.shared.arm(FaultPoint.settingsContext.name) { hit in
                hit == 1 ? .call { _ in SettingsFeature.resetCurrentContext() } : nil
            }
            #expect(try repository.set("off", for: .notifications) == .keptInFallback)
            #expect(repository.breakerState == .open)
            #expect(try repository.value(for: .colorScheme) == "dark", "read from the file while open")
            #expect(try repository.set("light", for: .colorScheme) == .keptInFallback)
            #expect(repository.pendingCount == 2)
            #expect(FaultRegistry.shared.hitCount(FaultPoint.settingsContext.name) == 1, "open: the store is left alone")
            #expect(try Self.stored(store) == ["color-scheme": "dark"])

            repository.provideNewContext()
            #expect(repository.breakerState == .halfOpen)
            #expect(try repository.value(for: .notifications) == "off")
            #expect(repository.breakerState == .closed)
            #expect(repository.pendingCount == 0)
            #expect(try Self.stored(store) == ["color-scheme": "light", "notifications": "off"], "nothing lost, newest wins")
        }

        @Test @MainActor func aPendingChangeNeverOverwritesANewerOne() throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            let store = try #require(app.store)
            let repository = SettingsRepository(store: store, fallback: SettingsFallbackFile(directory: directory.url))
            FaultRegistry.shared.arm(FaultPoint.settingsContext.name) { hit in hit == 1 ? .fail(message: "busy") : nil }
            #expect(try repository.set("large", for: .fontSize) == .keptInFallback)
            repository.provideNewContext()
            // Half-open, the first store operation is itself a change of the same setting.
            #expect(try repository.set("small", for: .fontSize) == .stored)
            #expect(repository.breakerState == .closed)
            #expect(try Self.stored(store) == ["font-size": "small"])
        }

        @Test @MainActor func afterTheCoolDownTheNextOperationTriesTheStoreAgain() throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            let store = try #require(app.store)
            let repository = SettingsRepository(store: store, fallback: SettingsFallbackFile(directory: directory.url),
                                                coolDown: .zero)
            FaultRegistry.shared.arm(FaultPoint.settingsContext.name) { hit in hit == 1 ? .fail(message: "busy") : nil }
            #expect(try repository.set("fr", for: .language) == .keptInFallback)
            #expect(repository.breakerState == .open)
            #expect(try repository.value(for: .language) == "fr")
            #expect(repository.breakerState == .closed, "the cool-down was over: a new context, and it worked")
            #expect(try Self.stored(store) == ["language": "fr"])
        }

        @Test @MainActor func pendingChangesSurviveARestartAndReachTheStore() async throws {
            let directory = try TemporaryAppDirectory()
            do {
                let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
                defer { app.stop(); FaultRegistry.shared.reset() }
                FaultRegistry.shared.arm(.settingsContext, always: .call { _ in SettingsFeature.resetCurrentContext() })
                #expect(app.settings.set("imperial", for: .units) == .keptInFallback)
                #expect(app.settings.breakerState == .open)
            }
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.settings.breakerState == .closed, "the launch's read merged the pending change")
            #expect(app.settings.values[.units] == "imperial")
            #expect(try Self.stored(try #require(app.store)) == ["units": "imperial"])
        }

        @Test @MainActor func aStoreThatKeepsNothingSendsSettingsToTheFile() throws {
            let directory = try TemporaryAppDirectory()
            try Data(repeating: 0x5A, count: 8192).write(to: directory.configuration.storeURL)  // garbage, no backup
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.health.mode == .inMemory)
            #expect(app.settings.breakerState == .open)
            #expect(app.settings.set("dark", for: .colorScheme) == .keptInFallback)
            #expect(SettingsFallbackFile(directory: directory.url).read().values == ["color-scheme": "dark"])
        }

        @Test @MainActor func aReadOnlyStoreStillShowsItsSettingsAndChangesGoToTheFile() throws {
            let directory = try TemporaryAppDirectory()
            do {
                let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
                #expect(app.settings.set("large", for: .fontSize) == .stored)
                app.stop()
            }
            try FileManager.default.removeItem(at: SettingsFallbackFile(directory: directory.url).url)
            #expect(chmod(directory.configuration.storeURL.path, 0o444) == 0)
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.health.mode == .readOnly)
            #expect(app.settings.breakerState == .open)
            #expect(app.settings.values[.fontSize] == "large", "read from the store, through the file")
            #expect(app.settings.set("fr", for: .language) == .keptInFallback)
            #expect(app.settings.value(for: .language) == "fr")
        }

        @Test @MainActor func refusedValuesAreShownInPlainWords() throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.settings.set("", for: .language) == nil)
            let message = try #require(app.settings.errorMessage)
            for word in ["SQLITE", "errno", "nil", "Optional(", "Error", "GRDB"] { #expect(!message.contains(word)) }
            #expect(app.settings.set("de", for: .language) == .stored)
            #expect(app.settings.errorMessage == nil)
        }
    }
}
