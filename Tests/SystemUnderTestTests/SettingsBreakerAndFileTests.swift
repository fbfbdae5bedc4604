import Foundation
import Testing
@testable import SystemUnderTest

/// Seed 004's circuit breaker as a state machine, and the fallback file it falls back
/// on: no store, no fault, no clock but instants handed in.
extension SystemUnderTestSuite {
    @Suite struct SettingsBreakerAndFile {
        @Test func breakerGoesClosedOpenHalfOpenClosed() {
            let start = ContinuousClock.now
            var breaker = SettingsCircuitBreaker()
            #expect(breaker.state == .closed && breaker.allowsStore)

            breaker.contextProvided()
            #expect(breaker.state == .closed, "a new context on a closed breaker changes nothing")
            breaker.recordFailure(at: start)
            #expect(breaker.state == .open && !breaker.allowsStore)
            #expect(breaker.timesOpened == 1)
            breaker.recordSuccess()
            #expect(breaker.state == .open, "only half-open closes on success")

            breaker.contextProvided()
            #expect(breaker.state == .halfOpen && breaker.allowsStore)
            breaker.recordFailure(at: start + .seconds(1))
            #expect(breaker.state == .open, "a failure half-open opens again")
            #expect(breaker.timesOpened == 2)

            breaker.contextProvided()
            breaker.recordSuccess()
            #expect(breaker.state == .closed)
            #expect(breaker.openedAt == nil)
        }

        @Test func coolDownCountsMonotonicTimeFromTheLastOpening() {
            let start = ContinuousClock.now
            var breaker = SettingsCircuitBreaker(coolDown: .seconds(30))
            #expect(!breaker.isCoolDownOver(at: start + .seconds(60)), "a closed breaker has no cool-down")
            breaker.recordFailure(at: start)
            #expect(!breaker.isCoolDownOver(at: start + .seconds(29)))
            #expect(breaker.isCoolDownOver(at: start + .seconds(30)))
            breaker.recordFailure(at: start + .seconds(20))
            #expect(!breaker.isCoolDownOver(at: start + .seconds(30)), "a new failure restarts the cool-down")
        }

        @Test func fallbackFileIsReplacedAtomicallyAndLeavesNoTemporary() throws {
            let directory = try TemporaryAppDirectory()
            let file = SettingsFallbackFile(directory: directory.url)
            #expect(file.read() == .init(), "a missing file reads as empty")

            try file.write(.init(values: ["color-scheme": "dark"], pending: ["color-scheme", "color-scheme"]))
            #expect(file.read() == .init(values: ["color-scheme": "dark"], pending: ["color-scheme"]))
            try file.write(.init(values: ["color-scheme": "light", "units": "imperial"]))
            #expect(file.read().values == ["color-scheme": "light", "units": "imperial"])
            #expect(!FileManager.default.fileExists(atPath: file.temporaryURL.path))
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            #expect(names == ["settings-fallback.json"])
        }

        @Test func aWriteCutShortNeverReplacesTheFile() throws {
            let directory = try TemporaryAppDirectory()
            let file = SettingsFallbackFile(directory: directory.url)
            try file.write(.init(values: ["language": "fr"]))
            // A crash between writing the temporary file and the rename leaves a half
            // temporary behind: the file itself is the old one, whole.
            try Data("{\"values\": {\"lang".utf8).write(to: file.temporaryURL)
            #expect(file.read().values == ["language": "fr"])
            // The next write does not trip over the leftover.
            try file.write(.init(values: ["language": "de"]))
            #expect(file.read().values == ["language": "de"])
            #expect(!FileManager.default.fileExists(atPath: file.temporaryURL.path))
        }

        @Test func anUnreadableFileIsTreatedAsEmptyNotTrusted() throws {
            let directory = try TemporaryAppDirectory()
            let file = SettingsFallbackFile(directory: directory.url)
            try Data([0xFF, 0x00, 0x13]).write(to: file.url)
            #expect(file.read() == .init())
        }

        @Test func aFileThatCannotBeWrittenThrows() throws {
            let directory = try TemporaryAppDirectory()
            // The file's place is taken by a folder: the rename cannot replace it.
            let file = SettingsFallbackFile(directory: directory.url)
            try FileManager.default.createDirectory(at: file.url.appendingPathComponent("x"), withIntermediateDirectories: true)
            #expect(throws: (any Error).self) { try file.write(.init(values: ["units": "metric"])) }
            #expect(!FileManager.default.fileExists(atPath: file.temporaryURL.path))
        }
    }
}
