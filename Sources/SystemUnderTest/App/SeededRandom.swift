import FaultPoints

/// The app's seeded random source: the framework's one generator (SplitMix64, in
/// FaultPoints, the only Chaos module the app links). Quiz order, family codes, client
/// ids and backoff jitter all come from the seed the app is given, so a reported
/// failure replays.
package typealias SeededRandom = SplitMix64
/// The quiz's generator (the same one; the name reads well where it is used).
package typealias QuizRandom = SeededRandom
/// The family feature's generator (the same one).
package typealias FamilyRandom = SeededRandom

extension SplitMix64 {
    /// A uniform integer in `0..<bound` (0 when `bound` < 2) by modulo rejection (the
    /// family feature's draws, whose recorded sequences tests pin).
    package mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let range = UInt64(bound)
        let limit = UInt64.max - UInt64.max % range
        while true {
            let value = next()
            if value < limit { return Int(value % range) }
        }
    }

    /// The elements in a seeded order (Fisher–Yates). Written out, as the samplers are:
    /// the standard library's shuffle may change between Swift releases.
    package mutating func shuffle<Element>(_ elements: [Element]) -> [Element] {
        var result = elements
        var index = result.count - 1
        while index > 0 {
            result.swapAt(index, nextInt(below: index + 1))
            index -= 1
        }
        return result
    }
}
