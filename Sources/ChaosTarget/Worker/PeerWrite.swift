internal import CChaosVFS
import Foundation

/// What the peer worker does to the shared store (the controller's `Seams/Peer`): takes
/// its write lock and lets go after `holdMs` (another process of the app writing), or
/// also writes pages it never commits (`dirty`) and holds on until it is killed, or
/// migrates it as a newer version of the app would (`migrate`).
package struct PeerWriteOrder: Codable, Sendable, Equatable {
    /// The store, relative to the data folder.
    package var file: String
    /// How long the lock is held; nil: until the process ends.
    package var holdMs: Int?
    package var dirty: Bool
    package var migrate = false

    package init(file: String, holdMs: Int?, dirty: Bool, migrate: Bool = false) {
        self.file = file
        self.holdMs = holdMs
        self.dirty = dirty
        self.migrate = migrate
    }
}

/// The peer's connection (``PeerWriteOrder``), in C: `chaos_peer.c`.
enum PeerWrite {
    /// An open connection holding the lock, released on a thread of its own.
    struct Held: @unchecked Sendable {
        let handle: UnsafeMutableRawPointer

        /// Rolls back and closes.
        func release() { chaos_peer_release(handle) }
    }

    struct Refused: Error, CustomStringConvertible {
        var code: Int32
        var file: String
        var description: String { "\(PeerWriteRefusal.marker) \(file): SQLite error \(code)" }
    }

    /// Takes the lock (and writes, if dirty) before returning; lets go `holdMs` later.
    static func carryOut(_ order: PeerWriteOrder, dataDirectory: URL) throws {
        if order.migrate {
            let code = chaos_peer_migrate(dataDirectory.appendingPathComponent(order.file).path)
            guard code == 0 else { throw Refused(code: code, file: order.file) }
            return
        }
        let held = try take(order, dataDirectory: dataDirectory)
        guard let ms = order.holdMs else { return }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: Double(ms) / 1000)
            held.release()
        }
    }

    /// Takes the lock (and writes, if dirty), held until released.
    static func take(_ order: PeerWriteOrder, dataDirectory: URL) throws -> Held {
        let path = dataDirectory.appendingPathComponent(order.file).path
        var handle: UnsafeMutableRawPointer?
        let code = chaos_peer_hold_write(path, order.dirty ? 1 : 0, &handle)
        guard code == 0, let handle else { throw Refused(code: code, file: order.file) }
        return Held(handle: handle)
    }
}

/// How a peer's refusal by SQLite reads, which the controller tells from a failure of
/// its own: the fault met the world (a full disk) and had no effect.
package enum PeerWriteRefusal {
    package static let marker = "the peer could not write"
}
