import Foundation

/// What a fault point costs: disarmed (one relaxed atomic load), with a point armed
/// elsewhere (the registry's lock), and in a build without the `FaultPointsEnabled`
/// trait (nothing at all), each against the same loop without the point.
///
/// The loops live in `chaos-bench-points`, built twice by `make bench` (with and without
/// the trait); this runs both builds and reads their figures.
enum FaultPointBenchmark {
    struct Figures {
        var traitOn: Bool
        var bare: Sample
        var point: Sample
        var armedElsewhere: Sample?
    }

    static func run(rounds: Int, enabled: String, compiledOut: String) {
        print("Fault points (20,000,000 iterations a round, \(rounds) interleaved rounds, each build in its own process)")
        for (title, path) in [("trait on (default build)", enabled), ("trait off (--disable-default-traits)", compiledOut)] {
            guard let figures = measure(path, rounds: rounds) else {
                line("  \(title)", "skipped — \(path) is missing or failed (make bench builds it)")
                continue
            }
            let perHit = figures.point.median - figures.bare.median
            line("  \(title): bare loop", figures.bare.formatted("ns/iteration", digits: 2))
            line("", "with a point: " + figures.point.formatted("ns/iteration", digits: 2))
            line("", String(format: "cost of a disarmed hit %.2f ns (goal ≤ 2 ns%@)", perHit,
                            figures.traitOn ? "" : "; compiled out, the goal is 0"))
            if let armed = figures.armedElsewhere {
                line("", "hit while another point is armed: " + armed.formatted("ns/hit", digits: 1))
            }
        }
    }

    /// Runs one build of `chaos-bench-points` and reads its lines.
    static func measure(_ path: String, rounds: Int) -> Figures? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [String(rounds)]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        var values: [String: [Double]] = [:]
        var traitOn: Bool?
        for text in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let words = text.split(separator: " ").map(String.init)
            guard let key = words.first else { continue }
            if key == "trait" { traitOn = words.dropFirst().first == "on"; continue }
            values[key] = words.dropFirst().compactMap(Double.init)
        }
        guard let traitOn, let bare = values["bare"], let point = values["point"], !bare.isEmpty, !point.isEmpty else { return nil }
        return Figures(traitOn: traitOn, bare: Sample(values: bare), point: Sample(values: point),
                       armedElsewhere: values["armed-elsewhere"].map { Sample(values: $0) })
    }
}
