import Foundation
import Testing
import ChaosTarget

/// A request is one of the asks, each with what it needs: the wire keeps the fields of
/// docs/TARGETS.md §5, every ask comes back as it went, and a request of a known op
/// without what its op needs is answered as that request, saying what is missing.
@Suite struct WorkerRequestTests {
    static let armed = ArmedFault(id: "step-2", fault: IOErrorFault(operation: IOErrorFault.anyOperation), trigger: Trigger(after: 1, times: 1), seed: 9)

    @Test(arguments: [
        WorkerRequest.Ask.describe, .launch, .snapshot, .stop, .countPoints,
        .perform("favorites.add", arguments: ["count": .int(3)]), .perform("favorites.list", arguments: [:]),
        .probe("surfaced"), .arm(armed), .disarm("step-2"), .disarm(nil),
        .trackWrites(torn: true, seam: .libc), .trackWrites(torn: false),
        .powerLoss(PowerLossOrder(mode: .torn, afterWrites: 3, seed: 5)),
    ])
    func everyAskComesBackAsItWent(ask: WorkerRequest.Ask) throws {
        let data = try JSONEncoder().encode(WorkerRequest(id: 4, ask))
        #expect(try JSONDecoder().decode(WorkerRequest.self, from: data) == WorkerRequest(id: 4, ask))
    }

    @Test func theWireKeepsTheFieldsOfItsOp() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func line(_ ask: WorkerRequest.Ask) throws -> String { String(decoding: try encoder.encode(WorkerRequest(id: 1, ask)), as: UTF8.self) }
        #expect(try line(.perform("notes.add", arguments: ["title": .string("x")])) == #"{"arguments":{"title":"x"},"id":1,"name":"notes.add","op":"perform"}"#)
        #expect(try line(.disarm("power-loss")) == #"{"id":1,"name":"power-loss","op":"disarm"}"#)
        #expect(try line(.stop) == #"{"id":1,"op":"stop"}"#)
        #expect(try line(.trackWrites(torn: true)) == #"{"id":1,"op":"track-writes","torn":true}"#)
    }

    @Test(arguments: [(#"{"id":7,"op":"arm"}"#, "arm without a fault"), (#"{"id":7,"op":"perform"}"#, "perform without a name"),
                      (#"{"id":7,"op":"power-loss"}"#, "power-loss without a power-loss order")])
    func aKnownOpWithoutWhatItNeedsIsAnsweredAsThatRequest(line: String, problem: String) {
        #expect(throws: WorkerRequest.Malformed.self) { try JSONDecoder().decode(WorkerRequest.self, from: Data(line.utf8)) }
        do {
            _ = try JSONDecoder().decode(WorkerRequest.self, from: Data(line.utf8))
        } catch let malformed as WorkerRequest.Malformed {
            #expect(malformed.id == 7)
            #expect(malformed.description == problem)
        } catch {
            Issue.record("not the request's own problem: \(error)")
        }
    }
}
