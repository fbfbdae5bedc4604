import Foundation
import Testing
import ChaosTarget

/// A reply is an answer, with what that answer carries, and the worker's status: the
/// wire keeps the fields of docs/TARGETS.md §5 byte for byte, every answer and every
/// part of the status comes back as it went, and a line as a worker writes it reads as
/// the answer it means.
@Suite struct WorkerReplyTests {
    static let declaration = TargetDeclaration(files: ["store": "app.sqlite"], actions: ["app.list"], probes: ["app.count"])
    static let status = WorkerStatus(
        firings: [FaultFiring(id: "step-2", kind: "io-error", hit: 3, target: "wal", detail: "write of app.sqlite-wal → result code 10", fired: 1, seam: .vfs)],
        faults: [FaultStanding(id: "step-2", counter: TriggerCounter(hits: 3, fired: 1, randomState: 7))],
        tracked: TrackedIO(writes: 85, syncs: 13), pointsHit: ["store/favorites/fetch"],
        reach: StorageReach(vfsOpens: 2, libcOpens: 1, libcCalls: 3), storeSettings: StoreSettings(synchronous: "full", wal: true),
        calls: [SeamCall(seam: .sqlite, op: .open, file: "app.sqlite", result: SeamCall.ok, count: 2)])

    static func line(_ reply: WorkerReply) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(reply), as: UTF8.self)
    }

    static func read(_ line: String) throws -> WorkerReply {
        try JSONDecoder().decode(WorkerReply.self, from: Data(line.utf8))
    }

    @Test(arguments: [
        WorkerReply.Answer.done, .value(.map(["mode": .string("persistent")])), .value(.int(0)),
        .actionDone(value: nil, isRead: false), .actionDone(value: .list([.string("a"), .null]), isRead: true),
        .actionFailed(userMessage: "Could not save.", error: "disk I/O error", value: .int(2)),
        .actionFailed(userMessage: nil, error: nil, value: nil),
        .snapshot(["favorite": ["favorite:1": "one"], "visit": [:]]), .snapshot([:]), .declaration(declaration),
        .failed(.target, error: "unknown probe 'x'"), .failed(.app, error: "the snapshot query failed"),
        .failed(.control, error: "not a request: garbage"), .failed(.app, error: nil),
    ])
    func everyAnswerComesBackAsItWent(answer: WorkerReply.Answer) throws {
        for status in [WorkerStatus(), Self.status] {
            let reply = WorkerReply(id: 4, answer, status: status)
            #expect(try Self.read(Self.line(reply)) == reply)
        }
    }

    @Test func everyPartOfTheStatusComesBackAsItWent() throws {
        let parts: [WorkerStatus] = [
            WorkerStatus(firings: Self.status.firings), WorkerStatus(faults: Self.status.faults),
            WorkerStatus(tracked: Self.status.tracked), WorkerStatus(pointsHit: []), WorkerStatus(pointsHit: Self.status.pointsHit),
            WorkerStatus(reach: Self.status.reach), WorkerStatus(storeSettings: Self.status.storeSettings),
            WorkerStatus(calls: Self.status.calls), Self.status,
        ]
        for status in parts {
            let reply = WorkerReply(id: 2, .done, status: status)
            #expect(try Self.read(Self.line(reply)).status == status)
        }
    }

    /// Lines as the worker writes them (the built-in app's, from a session of requests),
    /// read as the answer they mean and written back the same.
    @Test(arguments: [
        (#"{"id":3,"ok":true,"value":{"mode":"persistent"}}"#, WorkerReply(id: 3, .value(.map(["mode": .string("persistent")])))),
        (#"{"id":4,"ok":true,"storeSettings":{"synchronous":"full","wal":true},"value":{"message":null,"severity":"none"}}"#,
         WorkerReply(id: 4, .value(.map(["message": .null, "severity": .string("none")])),
                     status: WorkerStatus(storeSettings: StoreSettings(synchronous: "full", wal: true)))),
        (#"{"id":3,"isRead":true,"ok":true,"storeSettings":{"synchronous":"full","wal":true},"value":1}"#,
         WorkerReply(id: 3, .actionDone(value: .int(1), isRead: true), status: WorkerStatus(storeSettings: StoreSettings(synchronous: "full", wal: true)))),
        (#"{"id":2,"isRead":false,"ok":true}"#, WorkerReply(id: 2, .actionDone(value: nil, isRead: false))),
        (#"{"error":"join failed: no family with this code","failure":"app","id":5,"isRead":false,"ok":false,"userMessage":"No family uses this code."}"#,
         WorkerReply(id: 5, .actionFailed(userMessage: "No family uses this code.", error: "join failed: no family with this code", value: nil))),
        (#"{"error":"no quiz question on screen (quiz state idle)","failure":"app","id":6,"isRead":false,"ok":false}"#,
         WorkerReply(id: 6, .actionFailed(userMessage: nil, error: "no quiz question on screen (quiz state idle)", value: nil))),
        (#"{"id":7,"ok":true,"snapshot":{"family":{},"favorite":{"favorite:1":"[id:1 imageURL:\"https:\/\/img.example\/1.png\"]"}}}"#,
         WorkerReply(id: 7, .snapshot(["family": [:], "favorite": ["favorite:1": #"[id:1 imageURL:"https://img.example/1.png"]"#]]))),
        (#"{"error":"arm without a fault","failure":"target","id":9,"ok":false}"#, WorkerReply(id: 9, .failed(.target, error: "arm without a fault"))),
        (#"{"error":"not a request: garbage","failure":"control","id":-1,"ok":false}"#, WorkerReply(id: -1, .failed(.control, error: "not a request: garbage"))),
        (#"{"id":1,"ok":true,"trackedSyncs":0,"trackedWrites":0}"#, WorkerReply(id: 1, .done, status: WorkerStatus(tracked: TrackedIO(writes: 0, syncs: 0)))),
        (#"{"id":5,"ok":true,"pointsHit":["store\/favorites\/fetch"],"storeSettings":{"synchronous":"full","wal":true},"trackedSyncs":13,"trackedWrites":85}"#,
         WorkerReply(id: 5, .done, status: WorkerStatus(tracked: TrackedIO(writes: 85, syncs: 13), pointsHit: ["store/favorites/fetch"],
                                                        storeSettings: StoreSettings(synchronous: "full", wal: true)))),
        (#"{"calls":[{"count":2,"file":"app.sqlite","op":"open","result":"ok","seam":"sqlite"}],"id":8,"ok":true,"reach":{"libcCalls":3,"libcOpens":1,"vfsOpens":2}}"#,
         WorkerReply(id: 8, .done, status: WorkerStatus(reach: StorageReach(vfsOpens: 2, libcOpens: 1, libcCalls: 3),
                                                        calls: [SeamCall(seam: .sqlite, op: .open, file: "app.sqlite", result: SeamCall.ok, count: 2)]))),
    ])
    func aLineAsTheWorkerWritesItReadsAsItsAnswer(line: String, reply: WorkerReply) throws {
        #expect(try Self.read(line) == reply)
        #expect(try Self.line(reply) == line)
    }

    /// `describe`'s answer: the declaration, beside `id` and `ok`, as the target encodes it.
    @Test func aDeclarationIsTheAnswerToDescribe() throws {
        let declaration = String(decoding: try {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(Self.declaration)
        }(), as: UTF8.self)
        let line = #"{"declaration":"# + declaration + #","id":0,"ok":true}"#
        #expect(try Self.read(line) == WorkerReply(id: 0, .declaration(Self.declaration)))
        #expect(try Self.line(WorkerReply(id: 0, .declaration(Self.declaration))) == line)
        // A target speaking the protocol itself may leave out what is the default.
        let short = #"{"declaration":{"actions":["app.list"],"files":{"store":"app.sqlite"},"probes":["app.count"]},"id":0,"ok":true}"#
        #expect(try Self.read(short) == WorkerReply(id: 0, .declaration(Self.declaration)))
    }

    /// What a target of its own may write, read as the answer it means: a failure that
    /// does not say what failed is the app's, a null value is no value, a perform's reply
    /// without `isRead` is not a read.
    @Test func aLineOfATargetOfItsOwnReadsAsTheAnswerItMeans() throws {
        #expect(try Self.read(#"{"error":"boom","id":2,"ok":false}"#).answer == .failed(.app, error: "boom"))
        #expect(try Self.read(#"{"id":2,"ok":false}"#).answer == .failed(.app, error: nil))
        #expect(try Self.read(#"{"id":2,"ok":false,"userMessage":"Try again."}"#).answer
                == .actionFailed(userMessage: "Try again.", error: nil, value: nil))
        #expect(try Self.read(#"{"id":2,"ok":true,"value":null}"#).answer == .done)
        #expect(try Self.read(#"{"failure":"app","id":5,"isRead":false,"ok":false,"value":null}"#).answer
                == .actionFailed(userMessage: nil, error: nil, value: nil))
        #expect(try Self.read(#"{"id":2,"ok":true,"value":3}"#).answer.isRead == false)
        #expect(try Self.read(#"{"id":2,"ok":true,"trackedWrites":4}"#).status.tracked == nil, "writes without syncs say nothing")
        #expect(throws: DecodingError.self) { try Self.read(#"{"failure":"nobody","id":2,"ok":false}"#) }
        #expect(throws: DecodingError.self) { try Self.read(#"{"id":2,"value":3}"#) }
    }

    /// `ok` and what failed come from the answer, never from the error's text.
    @Test func whatFailedIsTheAnswers() {
        #expect(WorkerReply.Answer.failed(.target, error: "app: it failed").failure == .target)
        #expect(WorkerReply.Answer.actionFailed(userMessage: nil, error: "target: refused", value: nil).failure == .app)
        #expect(WorkerReply.Answer.actionFailed(userMessage: "Try again.", error: "SQLITE_FULL", value: nil).failureText == "Try again.")
        #expect(WorkerReply.Answer.actionDone(value: nil, isRead: true).ok)
        #expect(!WorkerReply.Answer.failed(.control, error: nil).ok)
        #expect(WorkerReply.Answer(ActionResult.failed("Try again.")) == .actionFailed(userMessage: "Try again.", error: nil, value: nil))
        #expect(WorkerReply.Answer(ActionResult.read(.int(2))) == .actionDone(value: .int(2), isRead: true))
    }
}
