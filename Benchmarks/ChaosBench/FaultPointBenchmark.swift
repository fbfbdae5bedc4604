import FaultPoints
import Foundation

/// What a fault point costs when nothing is armed (one relaxed atomic load), and when a
/// point elsewhere is armed (the registry's lock), against the same loop without it.
enum FaultPointBenchmark {
    static let benchPoint = FaultPoint("bench/loop/hit")
    static let otherPoint = FaultPoint("bench/other/point")

    /// A step the optimiser cannot fold into a closed form: a 64-bit LCG chain.
    @inline(__always)
    static func step(_ state: UInt64, _ index: Int) -> UInt64 {
        state &* 6_364_136_223_846_793_005 &+ UInt64(truncatingIfNeeded: index) | 1
    }

    @inline(never)
    static func bare(_ iterations: Int) -> Int {
        var state: UInt64 = 1
        for index in 0..<iterations { state = step(state, index) }
        return Int(truncatingIfNeeded: state)
    }

    @inline(never)
    static func withPoint(_ iterations: Int) -> Int {
        var state: UInt64 = 1
        for index in 0..<iterations {
            try? benchPoint.hit()
            state = step(state, index)
        }
        return Int(truncatingIfNeeded: state)
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
