import Foundation

/// Median, min and max of repeated measurements, and ratios measured in one run.
struct Sample {
    var values: [Double]

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }

    func formatted(_ unit: String, digits: Int = 1) -> String {
        let f = "%.\(digits)f"
        return "\(String(format: f, median)) \(unit) (min \(String(format: f, min)), max \(String(format: f, max)))"
    }
}

/// Seconds taken by `body`.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    return elapsed.inSeconds
}

/// Runs `a` and `b` alternately, `rounds` times each (a, b, b, a, a, b, ...: neither
/// always goes first), and returns both samples.
func interleaved(rounds: Int, _ a: () throws -> Double, _ b: () throws -> Double) rethrows -> (Sample, Sample) {
    var first: [Double] = []
    var second: [Double] = []
    for round in 0..<rounds {
        if round % 2 == 0 {
            first.append(try a())
            second.append(try b())
        } else {
            second.append(try b())
            first.append(try a())
        }
    }
    return (Sample(values: first), Sample(values: second))
}

func line(_ label: String, _ text: String) {
    print(label.padding(toLength: 52, withPad: " ", startingAt: 0) + text)
    fflush(nil)
}
