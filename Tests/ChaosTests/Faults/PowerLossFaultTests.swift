import Testing
@testable import Chaos
@testable import ChaosTarget

/// power-loss is a kind of the catalog like the others (`- fault: power-loss`), and the
/// step keyword `- power-loss: MODE` is the same fault written short: both load to one
/// ``FaultStep``, armed, cleared and measured by the power seam.
@Suite("Fault: power-loss")
struct PowerLossFaultTests {
    @Test func parsesItsExampleAndTheShortFormToTheSameFault() throws {
        let long = try ScenarioFixtures.faultStep(PowerLossFault.example)
        #expect(long.fault == AnyFault(PowerLossFault(mode: .torn, moment: .afterWrites(12))))
        #expect(long.fault.family == .power)
        #expect(long.fault.label == "power-loss torn after write 12")
        let short = try ScenarioFixtures.faultStep("- power-loss: torn\n  after-writes: 12")
        #expect(short == long)
        #expect(StepKeyword.powerLoss.bareAction == .fault(FaultStep(fault: AnyFault(PowerLossFault()))), "bare: now, dropping")
        #expect(try ScenarioFixtures.faultStep("- fault: power-loss\n  at-point: store/favorites/save").fault.label
                    == "power-loss drop at store/favorites/save")
    }

    @Test func ordersTheWorkerWithItsOwnSeedOrTheCases() {
        let sync = PowerLossFault(mode: .keep, moment: .atSync(3)).order(caseSeed: 9)
        #expect(sync == PowerLossOrder(mode: .keep, atSync: 3, seed: 9))
        #expect(!sync.isNow)
        let swept = PowerLossFault(mode: .torn, moment: .afterWrites(5), seed: 2).order(caseSeed: 9)
        #expect(swept == PowerLossOrder(mode: .torn, afterWrites: 5, seed: 2), "a sweep's seed wins")
        #expect(PowerLossFault().order(caseSeed: 1).isNow)
    }

    @Test func isClearedByKindAndStandsForNothingOnceItCame() throws {
        let scenario = try ScenarioLoader.load(yaml: ScenarioFixtures.scenario(steps: """
              - launch
              - power-loss: torn
                at-sync: 2
              - clear: power-loss
            """), file: "clear.yaml", baseDirectory: nil)
        #expect(scenario.steps.last?.action == .clear(.kind(PowerLossFault.kind)))
        #expect(!FaultFamily.power.stands, "a read that fails after a cut is not the cut's doing: recovery is measured")
        #expect(FaultCatalog.kind(named: "power-loss") == PowerLossFault.self)
    }

    @Test func rejectsBadParameters() {
        ScenarioFixtures.expectRefused("- fault: power-loss\n  at-sync: 2\n  after-writes: 3", at: .value("after-writes"),
                                       saying: "a power loss happens once")
        ScenarioFixtures.expectRefused("- fault: power-loss\n  after-writes: 1\n  mode: melt", at: .value("mode"), saying: "melt")
        ScenarioFixtures.expectRefused("- fault: power-loss\n  at-point: store/*", at: .value("at-point"),
                                       saying: "needs a fault point path")
        ScenarioFixtures.expectRefused("- fault: power-loss\n  after-writes: 1\n  times: 2", at: .key("times"),
                                       saying: "takes no trigger")
        ScenarioFixtures.expectRefused("- power-loss: torn\n  mode: keep\n  after-writes: 1", at: .value("mode"),
                                       saying: "the mode is written twice")
    }
}
