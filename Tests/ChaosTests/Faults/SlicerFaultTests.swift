import Testing
@testable import Chaos
@testable import ChaosTarget

/// slicer cuts each chunk into slices of the average size, plus or minus a seeded
/// variation, with a pause before each slice after the first. Decided as values,
/// without a socket.
@Suite("Fault: slicer")
struct SlicerFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(SlicerFault.example)
        #expect(step.fault == AnyFault(SlicerFault(averageSize: 16, sizeVariation: 8, delay: .milliseconds(10))))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault slicer 16±8 bytes every 10ms")
        let defaults = try ScenarioFixtures.faultStep("- fault: slicer")
        #expect(defaults.fault == AnyFault(SlicerFault(averageSize: 16, sizeVariation: 0, delay: .milliseconds(10), direction: .downstream)))
    }

    @Test func splitsIntoSeededSlicesWithPauses() {
        let fault = SlicerFault(averageSize: 8, sizeVariation: 4, delay: .milliseconds(10))
        var toxic = fault.toxic(seed: 3)
        let plan = toxic.plan(200)
        #expect(plan.byteCount == 200)
        #expect(plan.pieces.count >= 200 / 12)
        #expect(plan.pieces.dropLast().allSatisfy { (4...12).contains($0.count) })
        #expect(plan.pieces.first?.delay == .zero)
        #expect(plan.pieces.dropFirst().allSatisfy { $0.delay == .milliseconds(10) })
        var again = fault.toxic(seed: 3)
        #expect(again.plan(200) == plan)
    }

    /// Over many seeds, every slice but a chunk's last is within average ± variation,
    /// and the sizes vary with the seed; no slice is empty and nothing is ended.
    @Test func slicesStayWithinTheirBoundsForEverySeed() {
        let fault = SlicerFault(averageSize: 16, sizeVariation: 8, delay: .milliseconds(10))
        var plans: [ChunkPlan] = []
        for seed in UInt64(1)...30 {
            var toxic = fault.toxic(seed: seed)
            let plan = toxic.plan(1_000)
            #expect(plan.byteCount == 1_000 && plan.ending == nil, "seed \(seed)")
            #expect(plan.pieces.dropLast().allSatisfy { (8...24).contains($0.count) }, "seed \(seed)")
            #expect(plan.pieces.allSatisfy { $0.count >= 1 }, "seed \(seed)")
            plans.append(plan)
        }
        #expect(Set(plans.map { $0.pieces.map(\.count) }).count > 1, "the seed draws the sizes")
    }

    @Test func withoutVariationEverySliceIsTheAverage() {
        var toxic = SlicerFault(averageSize: 16, delay: .milliseconds(5)).toxic(seed: 1)
        let plan = toxic.plan(50)
        #expect(plan.pieces.map(\.count) == [16, 16, 16, 2])
        #expect(plan.pieces.map(\.delay) == [.zero, .milliseconds(5), .milliseconds(5), .milliseconds(5)])
        #expect(toxic.plan(3) == ChunkPlan(pieces: [.init(count: 3)]), "a small chunk is one slice, at once")
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: slicer\n  average-size: 4\n  size-variation: 4", at: .value("size-variation"),
                                       saying: "'size-variation' must be below 'average-size'")
        ScenarioFixtures.expectRefused("- fault: slicer\n  delay: 11s", at: .value("delay"), saying: "'delay' is at most 10s per slice")
        ScenarioFixtures.expectRefused("- fault: slicer\n  average-size: 0", at: .value("average-size"), saying: "must be from 1 to 1000000, found 0")
        ScenarioFixtures.expectRefused("- fault: slicer\n  size-variation: some", at: .value("size-variation"), saying: "expected an integer, found 'some'")
    }
}
