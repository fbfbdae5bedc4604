import Chaos
import Foundation
import Testing

/// The upload server (Examples/Uploads): a folder of files written through swift-nio's
/// `_NIOFileSystem`, no SQLite. Damage is judged by content: the fragile variant serves
/// damaged bytes as good and fails each damage case as *corrupted* (its keys are all
/// there: a check by key passed seven of them), and loses uploads to a power cut; the
/// fixed one checks each file's digest, sets damage aside and says so, and syncs.
@Suite(.serialized) struct UploadsExampleTests {
    static let damage = ["check-store-flipped-bytes", "check-store-garbage-header", "check-store-header-only",
                         "check-store-truncated", "check-store-zero-length", "check-store-zeroed-pages"]

    func check(_ variant: String) throws -> RunReport {
        let reports = try TemporaryFolder()
        _ = try ChaosExecutable.run(["check", "-j", "2", "--target-exec", CheckTests.example("uploads"), "--variant", variant,
                                     "--report-dir", reports.url.path], timeout: .seconds(300))
        return try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
    }

    @Test func theFragileServerFailsTheDamageCasesAsCorruptedAndThePowerCutAsLost() throws {
        let report = try check("fragile")
        ExampleVerdicts.hold(report, example: "uploads", variant: "fragile")
        for name in Self.damage {
            let item = try #require(report.cases.first { $0.scenario == name })
            let loss = try #require(item.expectations.first { $0.kind == "no-silent-loss" })
            #expect(!loss.passed && (loss.records?.corrupted ?? 0) > 0 && loss.records?.lost == 0, "\(name): \(loss.observed)")
            // The folder was damaged file by file, not refused as "a directory".
            #expect(item.injections.contains { $0.detail.contains("file by file") }, "\(name): \(item.injections.map(\.detail))")
        }
        let cut = try #require(report.cases.first { $0.scenario == "check-power-loss-on-save" })
        let lost = try #require(cut.expectations.first { $0.kind == "no-silent-loss" })
        #expect(!lost.passed && (lost.records?.lost ?? 0) > 0, "\(lost.observed)")
    }

    @Test func theFixedServerPassesTheCatalogAndSaysWhatItSetAside() throws {
        let report = try check("fixed")
        ExampleVerdicts.hold(report, example: "uploads", variant: "fixed")
        for name in Self.damage {
            let item = try #require(report.cases.first { $0.scenario == name })
            let loss = try #require(item.expectations.first { $0.kind == "no-silent-loss" })
            #expect(loss.passed && loss.observed.contains("the user was told"), "\(name): \(loss.observed)")
        }
        let notADatabase = try #require(report.cases.first { $0.scenario == "check-store-not-a-database" })
        #expect(notADatabase.verdict == .skipped && notADatabase.error?.contains("is a folder") == true, "\(notADatabase.error ?? "")")
    }

    /// An app whose files are not in its data folder (Foundation's documents folder as
    /// root, a path of its own): no case passes or deviates on data Chaos never touched —
    /// each is inconclusive and names the folder the app used. (17 cases once said
    /// "deviated: 1 of 1 acknowledged records lost" while every fault said "no effect",
    /// and not-a-database passed on a file put where the app never read.)
    @Test func anAppWhoseFilesAreElsewhereIsToldWhereEveryTime() throws {
        let elsewhere = try TemporaryFolder()
        let folder = elsewhere.url.appendingPathComponent("blobs").path
        let reports = try TemporaryFolder()
        let cases = ["check-store-not-a-database", "check-store-flipped-bytes", "check-disk-full-on-save", "check-power-loss-on-save"]
        let result = try ChaosExecutable.run(["check", "-j", "2", "--target-exec", CheckTests.example("uploads"), "--variant", "fragile",
                                              "--option", "blobs-folder=\(folder)", "--report-dir", reports.url.path]
                                             + cases.flatMap { ["--only", $0] }, timeout: .seconds(300))
        #expect(result.exitCode == 1, "inconclusive fails the gate: \(result.stdout)")
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        #expect(report.cases.count == cases.count)
        for item in report.cases {
            #expect(item.verdict == .inconclusive, "\(item.scenario): \(item.verdict)")
            #expect(item.error?.contains("the app wrote its files in \(folder), outside its data folder") == true,
                    "\(item.scenario): \(item.error ?? "")")
        }
    }

    /// A re-upload (swift-nio replaces a file as linkat → EEXIST → remove → linkat): the
    /// power cut at every write and sync of it loses nothing on the fixed server, which
    /// syncs file and folder; the fragile one is caught both ways, lost and corrupted.
    @Test func aCrashSweepOfAReUploadFailsNoTrialOnTheFixedServer() throws {
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Uploads/scenarios/uploads-reupload.yaml").path
        for variant in ["fixed", "fragile"] {
            let reports = try TemporaryFolder()
            let result = try ChaosExecutable.run(["explore", scenario, "--sweep", "crash", "--target-exec", CheckTests.example("uploads"),
                                                  "--variant", variant, "--report-dir", reports.url.path], timeout: .seconds(300))
            if variant == "fixed" {
                #expect(result.exitCode == 0 && result.stdout.contains("failures: none"), "\(result.stdout)")
            } else {
                #expect(result.exitCode == 1 && result.stdout.contains("silent corruption") && result.stdout.contains("silent data loss"),
                        "\(result.stdout)")
            }
        }
    }

    /// `io-error op: delete` bites on a re-upload: swift-nio removes the old name with
    /// remove(3), which glibc unlinks inside itself — the seam wraps remove itself (it
    /// reported "no effect").
    @Test func aFailedRemoveBitesOnAReUpload() throws {
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Uploads/scenarios/uploads-reupload-remove-fails.yaml").path
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", scenario, "--target-exec", CheckTests.example("uploads"), "--variant", "fixed",
                                              "--report-dir", reports.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)")
        let item = try #require(try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName)).cases.first)
        let fault = try #require(item.faults?.first { $0.kind == "io-error" })
        #expect(fault.fired == 1 && fault.hadEffect == true, "\(fault.effect ?? "")")
        #expect(item.steps.contains { $0.outcome == .expectedError && $0.label.contains("file-001.bin") })
    }
}
