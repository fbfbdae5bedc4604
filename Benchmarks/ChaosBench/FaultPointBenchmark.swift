import FaultPoints
import Foundation

/// What a fault point costs when nothing is armed (one relaxed atomic load), and when a
/// point elsewhere is armed (the registry's lock), against the same loop without it.
enum FaultPointBenchmark {
    static let benchPoint = FaultPoint("bench/loop/hit")
    static let otherPoint = FaultPoint("bench/other/point")

    @inline(never)
    static func bare(_ iterations: Int) -> Int {
        var sum = 0
        for index in 0..<iterations { sum &+= index &* 31 }
        return sum
    }

    @inline(never)
    static func withPoint(_ iterations: Int) -> Int {
        var sum = 0
        for index in 0..<iterations {
            try? benchPoint.hit()
            sum &+= index &* 31
        }
        return sum
    }

    static func run(rounds: Int) {
        let iterations = 20_000_000
        print("Fault points (\(iterations) iterations a round, \(rounds) interleaved rounds)")
        FaultRegistry.shared.reset()
        var sink = 0
        let (plain, disarmed) = interleaved(rounds: rounds, {
            seconds { sink &+= bare(iterations) }
        }, {
            seconds { sink &+= withPoint(iterations) }
        })
        let perHit = { (sample: Sample) in Sample(values: sample.values.map { $0 * 1e9 / Double(iterations) }) }
        line("  bare loop", perHit(plain).formatted("ns/iteration", digits: 2))
        line("  with a disarmed point", perHit(disarmed).formatted("ns/iteration", digits: 2))
        line("  cost of a disarmed hit", String(format: "%.2f ns (goal ≤ 2 ns)", perHit(disarmed).median - perHit(plain).median))
        FaultRegistry.shared.arm(otherPoint.name) { _ in nil }
        let armedIterations = 2_000_000
        let armedElsewhere = Sample(values: (0..<rounds).map { _ in
            seconds { for _ in 0..<armedIterations { try? benchPoint.hit() } } * 1e9 / Double(armedIterations)
        })
        line("  hit while another point is armed", armedElsewhere.formatted("ns/hit", digits: 1))
        FaultRegistry.shared.reset()
        if sink == 42 { print("") }
    }
}
