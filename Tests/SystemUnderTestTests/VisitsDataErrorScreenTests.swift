import Foundation
import Testing
@testable import SystemUnderTest

/// The data-error screen's three actions (seed 003): restart, contact support (a
/// diagnostics file with no personal data), reset data (confirmed, files moved aside).
extension SystemUnderTestSuite {
    @Suite struct VisitsDataErrorScreen {
        /// A store with visits, then damaged with no backup: the error screen shows.
        @MainActor static func damagedApp(_ directory: borrowing TemporaryAppDirectory) async throws -> ChaosApp {
            let configuration = directory.configuration
            try await VisitsLaunchHealth.seedVisits(4, in: configuration)
            try FileManager.default.removeItem(at: configuration.backupDirectory)
            try cutToItsHeader(configuration.storeURL)
            return ChaosApp(variant: .hardened, configuration: configuration)
        }

        @Test @MainActor func restartOnlyAsksTheHostToRelaunch() async throws {
            let directory = try TemporaryAppDirectory()
            let app = try await Self.damagedApp(directory)
            defer { app.stop() }
            let screen = try #require(app.visits.dataError)
            #expect(!screen.restartRequested)
            screen.restart()
            #expect(screen.restartRequested)
        }

        @Test @MainActor func diagnosticsCarryCodesAndVersionsAndNothingPersonal() async throws {
            let directory = try TemporaryAppDirectory()
            let app = try await Self.damagedApp(directory)
            defer { app.stop() }
            let screen = try #require(app.visits.dataError)
            let file = try #require(screen.contactSupport())
            #expect(file.path.hasPrefix(directory.url.path + "/support/"))
            #expect(file.lastPathComponent == "diagnostics-0001.json")
            #expect(screen.actionMessage == DataErrorViewModel.diagnosticsSaved)

            let data = try Data(contentsOf: file)
            let diagnostics = try JSONDecoder().decode(SupportDiagnostics.self, from: data)
            #expect(diagnostics.errorDomain == DataProblem.domain)
            #expect(diagnostics.errorCode == DataProblem.damaged.code)
            #expect(diagnostics.problem == "damaged")
            #expect(diagnostics.appVersion == SupportDiagnostics.appVersion)
            #expect(!diagnostics.osVersion.isEmpty)
            #expect(diagnostics.storeMode == "in-memory")
            #expect(diagnostics.filesSetAside >= 1)

            let text = try #require(String(data: data, encoding: .utf8))
            for visit in (1...4).map(Visit.numbered) {
                #expect(!text.contains(visit.placeName))
                #expect(!text.contains(visit.note))
            }
            #expect(!text.contains(directory.url.path), "no file paths")

            #expect(screen.contactSupport()?.lastPathComponent == "diagnostics-0002.json", "numbered, never overwritten")
        }

        @Test @MainActor func resetIsRefusedWithoutConfirmation() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await VisitsLaunchHealth.seedVisits(2, in: configuration)
            try VisitsLaunchHealth.markWrittenByNewerVersion(configuration)
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            let screen = try #require(app.visits.dataError)
            #expect(screen.resetData(confirmed: false) == .needsConfirmation)
            #expect(screen.confirmationPrompt == DataErrorViewModel.resetPrompt)
            #expect(!screen.restartRequested)
            #expect(FileManager.default.fileExists(atPath: configuration.storeURL.path), "nothing moved")
            #expect(app.visits.filesSetAside.isEmpty)
        }

        @Test @MainActor func confirmedResetMovesTheFilesAsideAndTheNextLaunchStartsFresh() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await VisitsLaunchHealth.seedVisits(2, in: configuration)
            try VisitsLaunchHealth.markWrittenByNewerVersion(configuration)
            let original = try Data(contentsOf: configuration.storeURL)
            do {
                let app = ChaosApp(variant: .hardened, configuration: configuration)
                defer { app.stop() }
                let screen = try #require(app.visits.dataError)
                guard case let .movedAside(moved) = screen.resetData(confirmed: true) else {
                    Issue.record("the confirmed reset did not move the files")
                    return
                }
                #expect(moved.contains("reset/0001/app.sqlite"))
                #expect(moved.contains("reset/0001/backups"), "a backup must not undo the reset")
                #expect(screen.restartRequested)
                #expect(screen.confirmationPrompt == nil)
            }
            // Moved, never deleted: the old store is whole in the reset folder.
            let kept = configuration.directory.appendingPathComponent("reset/0001/app.sqlite")
            #expect(try Data(contentsOf: kept) == original)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.health.mode == .persistent)
            #expect(app.visits.health.isHealthy)
            #expect(await app.visits.list.addVisit(.numbered(1)))
            #expect(await app.visits.list.load())
            #expect(app.visits.list.visits.map(\.id) == [1])
        }

        @Test @MainActor func screenMessagesAreFreeOfJargon() {
            let configuration = StoreConfiguration(directory: URL(fileURLWithPath: "/nonexistent"))
            for problem in DataProblem.allCases {
                let screen = DataErrorViewModel(health: VisitsHealth(problem: problem, loadError: "SQLITE_CORRUPT",
                                                                     storeMode: .inMemory),
                                                configuration: configuration)
                for text in [screen.title, screen.message, DataErrorViewModel.resetPrompt] {
                    for word in ["SQLITE", "errno", "nil", "Optional(", "Error", "GRDB", "Core Data"] {
                        #expect(!text.contains(word), "\(problem): \(text)")
                    }
                }
            }
        }
    }
}
