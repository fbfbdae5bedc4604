import Foundation
import Testing
import ReferenceTarget
@testable import Chaos
@testable import ChaosTarget

extension NetworkLabSuite {
    /// The family registry over real HTTP on loopback: 201, 409, 404, the list.
    @Suite("Family registry")
    struct FamilyRegistryServerTests {
        private func exchange(_ lab: RegistryLab, _ request: String) throws -> (status: Int, body: String) {
            let client = try LoopbackClient.connect(port: lab.registry.port)
            client.send(request)
            let text = String(decoding: client.receiveAll(within: .seconds(5)).chunks.joined(), as: UTF8.self)
            let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
            return (status, body)
        }

        private func post(_ body: String) -> String {
            "POST /families HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
        }

        private func get(_ path: String) -> String {
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        }

        @Test func registersLooksUpAndRefusesATakenCode() throws {
            let lab = try RegistryLab.start()
            defer { lab.stop() }
            let created = try exchange(lab, post(#"{"code":"ABC234","name":"Rivera","clientID":"d-1"}"#))
            #expect(created.status == 201)
            #expect(created.body == #"{"clientID":"d-1","code":"ABC234","name":"Rivera"}"#)
            #expect(try exchange(lab, post(#"{"code":"ABC234","name":"Other","clientID":"d-2"}"#)).status == 409)
            let found = try exchange(lab, get("/families/ABC234"))
            #expect(found.status == 200)
            #expect(found.body.contains(#""clientID":"d-1""#), "the 409 did not overwrite it")
            #expect(try exchange(lab, get("/families/ZZZ999")).status == 404)
            let list = try exchange(lab, get("/families"))
            #expect(list.status == 200)
            #expect(list.body == #"{"families":[{"clientID":"d-1","code":"ABC234","name":"Rivera"}]}"#)
            #expect(try exchange(lab, post(#"{"code":""}"#)).status == 400)
            #expect(try exchange(lab, get("/nowhere")).status == 404)
            #expect(lab.probe("remote.families") == .int(1))
            #expect(lab.probe("remote.duplicates") == .int(0))
            #expect(lab.probe("remote.registrations") == .int(2))
            #expect(lab.probe("remote.nothing") == nil)
        }

        @Test func registryCountsDuplicatesSoTheCheckCanFail() {
            let registry = FamilyRegistry()
            #expect(registry.register(.init(code: "ABC234", name: "A", clientID: "d-1")) == .created(.init(code: "ABC234", name: "A", clientID: "d-1")))
            #expect(registry.register(.init(code: "ABC234", name: "B", clientID: "d-2")) == .conflict(.init(code: "ABC234", name: "A", clientID: "d-1")))
            #expect(registry.duplicates == 0)
            // A client that retried its creation under a new code: one request, two families.
            _ = registry.register(.init(code: "XYZ789", name: "A", clientID: "d-1"))
            #expect(registry.duplicates == 1)
            #expect(registry.families.count == 2)
            #expect(registry.registrationRequests == 3)
        }
    }
}
