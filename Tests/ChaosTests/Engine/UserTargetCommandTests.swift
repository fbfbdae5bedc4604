import Chaos
import Foundation
import Testing

/// Every command takes a user's target: explore sweeps it, reproduce matches a crash log
/// against the user's own scenarios on it, list and validate read a folder of them, and
/// a variant the target does not declare is refused with the closest one.
@Suite struct UserTargetCommandTests {
    static var notes: String { UserTargetTests.example }
    static var scenarios: String { UserTargetTests.scenarios.path }
    static var saveFails: String { UserTargetTests.scenarios.appendingPathComponent("notes-save-fails.yaml").path }

    @Test(arguments: ["io", "crash"])
    func exploreSweepsAUserTargetAndCoversEveryPoint(sweep: String) throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["explore", Self.saveFails, "--sweep", sweep, "--target-exec", Self.notes,
                                              "--variant", "fragile", "--limit", "400", "--report-dir", reports.url.path])
        #expect(result.stdout.contains("target \(Self.notes)"), "\(result.stdout)")
        let covered = try #require(result.stdout.split(separator: "\n").first { $0.contains("covered:") }, "\(result.stdout)")
        let numbers = covered.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 0, "\(covered)")
        if result.exitCode == 1 {
            #expect(result.stdout.contains("--target-exec \(Self.notes)"), "a trial's reproduce line names the target")
        }
    }

    @Test func reproduceFindsTheUsersScenarioForAFragileTrapOnEachVariant() throws {
        let folder = try TemporaryFolder()
        let kept = try ChaosExecutable.run(["run", Self.scenarios + "/notes-corrupted.yaml", "--target-exec", Self.notes,
                                            "--variant", "fragile", "--keep", "--report-dir", folder.url.path])
        let scratch = try #require(kept.stdout.split(separator: "\n").first { $0.contains("kept: ") }?
            .components(separatedBy: "kept: ").last)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let stderr = try #require(try FileManager.default.contentsOfDirectory(atPath: scratch).filter { $0.hasSuffix(".stderr") }
            .compactMap { try? String(contentsOfFile: scratch + "/" + $0, encoding: .utf8) }.first { $0.contains("Fatal error") })
        let log = try folder.write("crash.log", stderr)

        let result = try ChaosExecutable.run(["reproduce", "--from-crash", log.path, "--scenarios", Self.scenarios,
                                              "--target-exec", Self.notes, "--report-dir", folder.url.path])
        #expect(result.exitCode == 1, "found and reproduced: \(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("variant fixed"), "tries each declared variant: \(result.stdout)")
        #expect(result.stdout.contains("notes-corrupted: trap SIGILL at FragileNotesRepository.swift:"))
        #expect(result.stdout.contains("same site and same message"))
        let again = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        #expect(again.cases.map(\.scenario) == ["notes-corrupted"])
        #expect(again.cases.first?.trap?.site?.hasPrefix("FragileNotesRepository.swift:") == true)
    }

    @Test func listAndValidateReadAFolderOfScenarios() throws {
        let list = try ChaosExecutable.run(["list", Self.scenarios])
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(list.stdout.contains("notes-corrupted") && list.stdout.contains("notes-save-fails"))
        #expect(!list.stdout.contains("corrupted-db"), "only the folder's scenarios")
        let validate = try ChaosExecutable.run(["validate", Self.scenarios, "--target-exec", Self.notes])
        #expect(validate.exitCode == 0, "\(validate.stderr)")
        #expect(validate.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == 3)

        let empty = try TemporaryFolder()
        let none = try ChaosExecutable.run(["validate", empty.url.path])
        #expect(none.exitCode == 64)
        #expect(none.stderr.contains("no scenario files (.yaml) in this folder"), "\(none.stderr)")
    }

    @Test func aVariantTheTargetDoesNotDeclareIsRefusedWithTheClosestOne() throws {
        let result = try ChaosExecutable.run(["run", Self.saveFails, "--target-exec", Self.notes, "--variant", "fragil"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("did you mean 'fragile'?"), "\(result.stderr)")
        #expect(result.stderr.contains("fixed, fragile"), "\(result.stderr)")
    }

    @Test func withoutAVariantTheTargetsFirstIsUsed() throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", Self.saveFails, "--target-exec", Self.notes, "--report-dir", reports.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("variant fixed"))
    }

    @Test func theReproduceLineCarriesTheOptionsAndReproduces() throws {
        let reports = try TemporaryFolder()
        let first = try ChaosExecutable.run(["run", "save-throws", "--variant", "legacy", "--option", "backup-every=7",
                                             "--report-dir", reports.url.path])
        #expect(first.exitCode == 1)
        let line = try #require(first.stdout.split(separator: "\n").first { $0.contains("reproduce: ") }?
            .components(separatedBy: "reproduce: ").last)
        #expect(line == "chaos run save-throws --seed 1 --variant legacy --option backup-every=7")
        let words = line.split(separator: " ").dropFirst().map(String.init)
        let again = try ChaosExecutable.run(words + ["--report-dir", reports.url.path])
        #expect(again.exitCode == 1)
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        #expect(report.cases.first?.options?["backup-every"] == "7")
    }
}

/// Every printed reproduce line reproduces: run as printed, it gives the same verdict.
@Suite struct ReproduceLineTests {
    /// The words of each `reproduce:` line of `output`, without the leading `chaos`.
    static func lines(_ output: String) -> [[String]] {
        output.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "reproduce: ") else { return nil }
            return Array(ShellWords.split(String(line[range.upperBound...])).dropFirst())
        }
    }

    @Test func eachLineOfAFailingCheckOnAUserTargetGivesTheSameVerdict() throws {
        let folder = try TemporaryFolder()
        let first = try ChaosExecutable.run(["check", "--target-exec", UserTargetTests.example, "--variant", "fragile",
                                             "--only", "check-store-garbage-header", "--only", "check-disk-full-on-save",
                                             "--seed", "9", "--report-dir", folder.url.path])
        #expect(first.exitCode == 1, "\(first.stdout)")
        let printed = Self.lines(first.stdout)
        #expect(printed.count == 2, "\(first.stdout)")
        let verdicts = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json")).cases
        for words in printed {
            #expect(words.contains("--target-exec") && words.contains("9"), "\(words)")
            let again = try TemporaryFolder()
            let result = try ChaosExecutable.run(words + ["--report-dir", again.url.path])
            let report = try JSONReportWriter.read(from: again.url.appendingPathComponent("chaos-report.json"))
            let name = try #require(report.cases.first?.scenario)
            #expect(report.cases.first?.verdict == verdicts.first { $0.scenario == name }?.verdict, "\(words): \(result.stdout)")
            #expect(report.cases.first?.trap?.site == verdicts.first { $0.scenario == name }?.trap?.site)
        }
    }
}
