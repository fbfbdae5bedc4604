import Foundation
import Testing
@testable import ChaosTarget

/// An event that names a record is written and read without Foundation's JSON coders
/// (most lines of a sweep's trial): the line must be the one `JSONEncoder` writes, and
/// anything the plain form cannot say goes through the coders.
@Suite struct WorkerEventLineTests {
    static func encoded(_ event: WorkerEvent) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(event), as: UTF8.self)
    }

    @Test(arguments: [WorkerEvent(event: .ack, key: "favorite:1"), WorkerEvent(event: .attempt, key: "order:42"),
                      WorkerEvent(event: .removing, key: "note:a b-c_d.e"), WorkerEvent(event: .remove, key: "")])
    func aRecordsEventIsTheLineTheEncoderWrites(event: WorkerEvent) throws {
        let line = try #require(event.plainLine)
        #expect(line == (try Self.encoded(event)))
        #expect(WorkerEvent.plain(line: line) == event)
    }

    @Test func aKeyJSONWouldEscapeGoesThroughTheCoders() throws {
        for key in [#"a"b"#, #"a\b"#, "a/b", "tab\there", "é", "line\nbreak"] {
            let event = WorkerEvent(event: .ack, key: key)
            #expect(event.plainLine == nil, "\(key)")
            let line = try Self.encoded(event)
            #expect(WorkerEvent.plain(line: line) == nil, "\(line) is left to the decoder")
            #expect(try JSONDecoder().decode(WorkerEvent.self, from: Data(line.utf8)) == event)
        }
    }

    @Test func otherLinesAreNotReadAsPlainEvents() throws {
        let firing = WorkerEvent(fired: FaultFiring(id: "f", kind: "io-error", hit: 1, target: "main", detail: "read", fired: 1))
        #expect(firing.plainLine == nil)
        #expect(WorkerEvent.plain(line: try Self.encoded(firing)) == nil)
        for line in [#"{"event":"ack","key":"x","more":1}"#, #"{"event":"fired","key":"x"}"#, #"{"event":"nope","key":"x"}"#,
                     #"{"event":"ack","key":"x"#, #"{"id":1,"ok":true}"#, ""] {
            #expect(WorkerEvent.plain(line: line) == nil, "\(line)")
        }
    }
}
