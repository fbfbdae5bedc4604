import Foundation
import Hummingbird

/// The sync example's server: the notes of one device, kept in memory, over HTTP/1.1
/// and JSON, as a small app's own backend would keep them.
///
/// | request | answer |
/// |---|---|
/// | `PUT /notes/{id}` `{"text": …}` | 200 `{"id": …, "stored": true}` (the same id again: stored once) |
/// | `GET /notes` | 200 `{"ids": [...]}` |
/// | `GET /chaos/probe/notes` | 200 the count (a probe Chaos asks the server itself) |
/// | `GET /chaos/snapshot/notes` | 200 the record keys it holds, `["note:1A2B3C4D"]` (what `claims-hold` checks the app's word against) |
///
/// Chaos starts it for each case (`--port {port}`), puts its fault proxy in front of it,
/// and ends it with the case.
@main
struct SyncServer {
    struct Stored: ResponseEncodable {
        let id: String
        let stored: Bool
    }

    struct Ids: ResponseEncodable {
        let ids: [String]
    }

    struct Body: Decodable {
        let text: String
    }

    static func main() async throws {
        let arguments = CommandLine.arguments
        guard let flag = arguments.firstIndex(of: "--port"), flag + 1 < arguments.count, let port = Int(arguments[flag + 1]) else {
            FileHandle.standardError.write(Data("usage: chaos-example-sync-server --port N\n".utf8))
            exit(64)
        }
        let notes = NoteShelf()
        let router = Router()
        router.put("notes/:id") { request, context -> Stored in
            let id = try context.parameters.require("id")
            let body = try await request.decode(as: Body.self, context: context)
            await notes.store(id: id, text: body.text)
            return Stored(id: id, stored: true)
        }
        router.get("notes") { _, _ -> Ids in
            Ids(ids: await notes.ids)
        }
        router.get("chaos/probe/notes") { _, _ -> String in
            String(await notes.ids.count)
        }
        router.get("chaos/snapshot/notes") { _, _ -> String in
            let keys = await notes.ids.map { "note:\($0)" }
            return String(decoding: (try? JSONEncoder().encode(keys)) ?? Data("[]".utf8), as: UTF8.self)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}

/// The server's notes, by id.
actor NoteShelf {
    private var notes: [String: String] = [:]

    func store(id: String, text: String) {
        notes[id] = text
    }

    var ids: [String] { notes.keys.sorted() }
}
