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
        var scopeElsewhere: Sample?
        /// libfiu's fiu_fail: the loop with it, and with a point enabled elsewhere.
        var fiu: (point: Sample, armedElsewhere: Sample)?
    }

    static func run(rounds: Int, enabled: String, compiledOut: String) {
        print("Fault points (20,000,000 iterations a round, \(rounds) interleaved rounds, each build in its own process)")
        for (title, path) in [("trait on (default build)", enabled), ("trait off (--disable-default-traits)", compiledOut)] {
            guard let figures = measure(path, rounds: rounds) else {
                line("  \(title)", "skipped — \(path) is missing or failed (make bench builds it)")
                continue
            }
            let perHit = figures.point.median - figures.bare.median
            BenchFigures.record("fault point loop, \(title)", unit: "ns/iteration", figures.point, peer: ("bare loop", figures.bare))
            line("  \(title): bare loop", figures.bare.formatted("ns/iteration", digits: 2))
            line("", "with a point: " + figures.point.formatted("ns/iteration", digits: 2))
            line("", String(format: "cost of a disarmed hit %.2f ns (goal ≤ 1 ns%@)", perHit,
                            figures.traitOn ? "" : "; compiled out, the goal is 0"))
            if let armed = figures.armedElsewhere {
                line("", "hit while another point is armed: " + armed.formatted("ns/hit", digits: 2) + " (goal ≤ 10)")
            }
            if let scope = figures.scopeElsewhere {
                line("", "hit while a scope is open elsewhere: " + scope.formatted("ns/hit", digits: 2) + " (goal ≤ 10)")
            }
            if let fiu = figures.fiu {
                let fiuPerHit = fiu.point.median - figures.bare.median
                line("", String(format: "libfiu fiu_fail, disarmed: %.2f ns; ours / libfiu %.2f", fiuPerHit, perHit / max(0.001, fiuPerHit)))
                if let armed = figures.armedElsewhere {
                    line("", "libfiu fiu_fail, another point enabled: " + fiu.armedElsewhere.formatted("ns/hit", digits: 2)
                        + String(format: "; ours / libfiu %.2f", armed.median / max(0.001, fiu.armedElsewhere.median)))
                }
            } else if figures.traitOn {
                line("", "libfiu: skipped — libfiu.so.0 not found (apt-get install libfiu0)")
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
        var fiu: (point: Sample, armedElsewhere: Sample)?
        if let fiuPoint = values["fiu-point"], let fiuArmed = values["fiu-armed-elsewhere"] {
            fiu = (Sample(values: fiuPoint), Sample(values: fiuArmed))
        }
        return Figures(traitOn: traitOn, bare: Sample(values: bare), point: Sample(values: point),
                       armedElsewhere: values["armed-elsewhere"].map { Sample(values: $0) },
                       scopeElsewhere: values["scope-elsewhere"].map { Sample(values: $0) }, fiu: fiu)
    }
}
