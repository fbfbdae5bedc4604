import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// Mutated and truncated variants of a valid scenario, derived deterministically from
/// SplitMix64: each one loads or throws a located ScenarioError; none traps.
@Suite("Scenario loader: fuzz")
struct ScenarioFuzzTests {
    static let base = ScenarioFixtures.designExample + """
        # extra shapes for the mutator to break
        options:
          synchronous: full
        """ + "\n"

    static let debris: [String] = [
        ":", "-", "- ", "{", "}", "[", "]", "'", "\"", "&a", "*a", "!!int", "|", ">", "#", "\t", " ", "  ", "\n", "%", "@", "`",
        "?", ",", "\\", "\u{0}", "\u{7F}", "é", "🙂", "null", "~", "99999999999999999999", "-1", "1e999", "0x1F", "5%", "-1h",
        "1:30", "<<: *a", "- fault: corrupt-file", "- do:", "with:", "times: always", "expect:", "steps:", "\r\n",
    ]

    static func mutate(_ text: String, rng: inout SplitMix64) -> String {
        var lines = text.components(separatedBy: "\n")
        var characters = Array(text)
        switch rng.nextInt(below: 8) {
        case 0:  // truncate at a random character
            return String(characters.prefix(rng.nextInt(below: characters.count + 1)))
        case 1:  // delete a line
            if !lines.isEmpty { lines.remove(at: rng.nextInt(below: lines.count)) }
            return lines.joined(separator: "\n")
        case 2:  // duplicate a line
            if !lines.isEmpty {
                let index = rng.nextInt(below: lines.count)
                lines.insert(lines[index], at: rng.nextInt(below: lines.count + 1))
            }
            return lines.joined(separator: "\n")
        case 3:  // swap two lines
            if lines.count > 1 { lines.swapAt(rng.nextInt(below: lines.count), rng.nextInt(below: lines.count)) }
            return lines.joined(separator: "\n")
        case 4:  // replace a character with debris
            if !characters.isEmpty {
                let index = rng.nextInt(below: characters.count)
                let piece = debris[rng.nextInt(below: debris.count)]
                characters.replaceSubrange(index...index, with: Array(piece))
            }
            return String(characters)
        case 5:  // insert debris
            let index = rng.nextInt(below: characters.count + 1)
            characters.insert(contentsOf: Array(debris[rng.nextInt(below: debris.count)]), at: index)
            return String(characters)
        case 6:  // change a line's indentation
            if !lines.isEmpty {
                let index = rng.nextInt(below: lines.count)
                let trimmed = lines[index].drop { $0 == " " }
                lines[index] = String(repeating: " ", count: rng.nextInt(below: 7)) + trimmed
            }
            return lines.joined(separator: "\n")
        default:  // replace a value after a colon
            if !lines.isEmpty {
                let index = rng.nextInt(below: lines.count)
                if let colon = lines[index].firstIndex(of: ":") {
                    lines[index] = String(lines[index][...colon]) + " " + debris[rng.nextInt(below: debris.count)]
                }
            }
            return lines.joined(separator: "\n")
        }
    }

    @Test func mutatedScenariosLoadOrFailWithALocatedError() {
        var rng = SplitMix64(seed: 20_240_601).derived("scenario-fuzz")
        var loaded = 0
        var failed = 0
        for _ in 0..<600 {
            var text = Self.base
            for _ in 0...rng.nextInt(below: 3) { text = Self.mutate(text, rng: &rng) }
            let lineCount = text.components(separatedBy: "\n").count
            do {
                let scenario = try ScenarioLoader.load(yaml: text, file: "fuzz.yaml", baseDirectory: nil)
                #expect(!scenario.steps.isEmpty)
                loaded += 1
            } catch {
                failed += 1
                #expect(error.file == "fuzz.yaml")
                #expect(error.line >= 1 && error.line <= lineCount + 1, "\(error)")
                #expect(error.column >= 1, "\(error)")
                #expect(!error.message.isEmpty)
                #expect(error.description.hasPrefix("fuzz.yaml:\(error.line):\(error.column): error: "))
            }
        }
        #expect(loaded > 0)
        #expect(failed > 0)
    }

    @Test func everyPrefixOfAValidScenarioLoadsOrFails() {
        let characters = Array(Self.base)
        for length in stride(from: 0, through: characters.count, by: 3) {
            let text = String(characters.prefix(length))
            do {
                _ = try ScenarioLoader.load(yaml: text, file: "prefix.yaml", baseDirectory: nil)
            } catch {
                #expect(error.line >= 1, "\(error)")
            }
        }
    }

    @Test func randomBytesAsAFileNeverTrap() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var rng = SplitMix64(seed: 7).derived("random-bytes")
        for index in 0..<50 {
            let url = directory.appendingPathComponent("random-\(index).yaml")
            var bytes = Array(Self.base.utf8)
            for _ in 0..<(1 + rng.nextInt(below: 4)) where !bytes.isEmpty {
                bytes[rng.nextInt(below: bytes.count)] = UInt8(rng.nextInt(in: 0...255))
            }
            try Data(bytes).write(to: url)
            do {
                _ = try ScenarioLoader.load(contentsOf: url)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
