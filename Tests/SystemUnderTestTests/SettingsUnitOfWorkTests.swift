import Foundation
import FaultPoints
import Testing
@testable import SystemUnderTest

/// The `ModelContext`-like unit of work: a reset invalidates what it handed out, and
/// using such an object throws a typed error instead of trapping.
extension SystemUnderTestSuite {
    @Suite struct SettingsUnitOfWork {
        @Test @MainActor func resetInvalidatesHandedOutRecordsAndTheirUseThrows() throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            let store = try #require(app.store)
            let context = SettingsContext(store: store)
            try context.save([.colorScheme: "dark", .units: "imperial"])
            let records = try context.fetchAll()
            #expect(try records.map { try $0.value } == ["dark", "imperial"])

            context.reset()
            let stale = try #require(records.first)
            #expect(!stale.isValid)
            #expect(throws: SettingsContextError.objectInvalidated(key: "color-scheme")) { try stale.value }
            #expect(throws: SettingsContextError.objectInvalidated(key: "color-scheme")) {
                try context.update(stale, to: "light")
            }
            // The context itself goes on: a new fetch hands out valid records, and the
            // refused update changed nothing.
            let fresh = try #require(try context.fetch(.colorScheme))
            #expect(try fresh.value == "dark")
            try context.update(fresh, to: "light")
            #expect(try context.fetch(.colorScheme).map { try $0.value } == "light")
        }

        @Test @MainActor func aResetDuringAnOperationDiscardsItAndSaysSo() throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            let store = try #require(app.store)
            let context = SettingsContext(store: store)
            FaultRegistry.shared.arm(.settingsContext, always: .call { _ in context.reset() })
            #expect(throws: SettingsContextError.contextReset) { try context.save([.language: "fr"]) }
            #expect(throws: SettingsContextError.contextReset) { try context.fetchAll() }
            FaultRegistry.shared.reset()
            #expect(try context.fetchAll().isEmpty, "the save was discarded, not half done")
            #expect(context.resetCount == 2)
        }

        @Test @MainActor func resetsFromOtherThreadsAreSafe() async throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            let store = try #require(app.store)
            let context = SettingsContext(store: store)
            SettingsContextSlot.shared.replace(with: context)
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { for _ in 0..<100 { SettingsFeature.resetCurrentContext() } }
                }
            }
            #expect(context.resetCount == 800)
        }

        @Test @MainActor func aStoreFailureIsTypedNotFatal() throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            let context = SettingsContext(store: try #require(app.store))
            FaultRegistry.shared.arm(.settingsContext, always: .fail(message: "disk on fire"))
            #expect {
                try context.save([.units: "imperial"])
            } throws: { error in
                guard case let .storeFailed(detail)? = error as? SettingsContextError else { return false }
                return detail.contains("disk on fire")
            }
        }
    }
}
