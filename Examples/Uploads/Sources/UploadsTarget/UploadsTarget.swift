import ChaosTarget
import UploadsCore

/// The upload example's Chaos target: a folder of files written through swift-nio's
/// `_NIOFileSystem`, no SQLite at all, so storage faults and power cuts reach it through
/// the libc seam, and damage is judged by content (each upload acknowledged with its
/// digest). `--variant fixed|fragile`.
@main
final class UploadsTarget: ChaosTarget {
    // The store is the uploads folder: the catalog damages the files in it one by one.
    static let files = ["store": "blobs"]
    static let variants = ["fixed", "fragile"]
    static let modes: [Health.Mode] = Health.Mode.standard + ["set-aside"]
    static let sqlite: [SQLiteLibrary] = []
    static let workload: Workload? = Workload(write: "uploads.put", read: "uploads.list")
    // A folder outside the data folder shows how Chaos tells an app whose files are elsewhere.
    static let options = [TargetOption("blobs-folder", .text, summary: "the uploads folder (default: blobs in the data folder)")]
    static let actions: [TargetAction<UploadsTarget>] = [
        // A new upload of 2 KiB; `name:` uploads that name again, with other bytes.
        TargetAction("uploads.put", parameters: [.int("count", in: 1...1_000), .text("name")]) { target, call in
            let store = try target.launched(target.store)
            for _ in 0..<(try call.int("count", default: 1)) {
                let upload = target.queue.next(call.arguments["name"] == nil ? nil : try call.string("name"))
                if upload.replaces { call.attempt("file:\(upload.name)") }  // a re-upload: either version may stand
                call.acknowledge(try await store.put(upload.name, bytes: upload.bytes), in: "file")  // "stored", and what
            }
            return .done()
        },
        // A listing is what the server learns the names it has from, at start or later.
        TargetAction("uploads.list", parameters: []) { target, _ in
            let blobs = try await target.launched(target.store).all()
            target.queue.learn(blobs)
            return .read(.int(blobs.count))
        },
    ]

    private let context: TargetContext
    private var store: (any BlobStore)?
    private var queue = UploadQueue()

    init(context: TargetContext) { self.context = context }

    func launch() async -> Health {
        do {
            store = try await openBlobStore(variant: context.variant, folder: context.options["blobs-folder"] ?? context.path("blobs"),
                                            manifest: context.path("manifest.json"))
            queue.learn(try await store?.all() ?? [])  // what the server checks at start
        } catch { return .unavailable("Your uploads are not available right now.") }
        return .warning(await store?.notice, mode: "set-aside")
    }

    func snapshot() async throws -> [String: [String: String]] { .records("file", (try? await store?.all()) ?? []) }
}
