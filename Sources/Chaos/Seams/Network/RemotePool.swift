import ChaosTarget
import Foundation
import Synchronization

/// The remotes of a sweep or a hunt, started ahead of the case that takes them and ended
/// behind it, so that neither waits on the critical path of a trial.
///
/// A remote Chaos starts is a fresh process for every case (its own port and folder,
/// nothing of the case before it): the reference app's registry took a trial 11 ms to
/// start and listen and 5 ms to end, as much as the trial's own steps in a family
/// sweep. Here a case takes a server that already listens (started while the cases
/// before it ran, its folder its own), and a replacement starts in the background; the
/// server is ended, and its folder removed, in the background when the case is done.
/// The first case of each remote starts its own as usual, and so does any case that
/// finds none ready: a command that cannot start fails that case with its own words.
/// A remote at an address (one that already listens) is never pooled.
///
/// ``shutDown()`` waits for every start and every end under way and ends what is left
/// ready: after it, nothing of the pool runs.
package final class RemotePool: Sendable {
    private let folder: URL
    private let mark: String
    let work = DispatchGroup()
    let state = Mutex<(ready: [String: [RemoteServer]], started: Int, closed: Bool, failed: Set<String>)>(([:], 0, false, []))

    /// `folder`: where the servers' own folders go (each removed with its server); `mark`
    /// goes in their environment (``ProcessLeftovers/markVariable``).
    package init(folder: URL, mark: String) {
        self.folder = folder
        self.mark = mark
    }

    /// A pool whose servers' folders go in a sweep's or a hunt's scratch `folder`, marked
    /// as its remotes (the folder's name, then `/remote`, as a case marks its own).
    package convenience init(in folder: URL) {
        self.init(folder: folder, mark: folder.lastPathComponent + "/remote")
    }

    /// A server of `remote` that listens and has not ended, started ahead of this case,
    /// or nil (start one as usual); either way a replacement starts in the background.
    func take(_ remote: Remote) -> RemoteServer? {
        guard case .command = remote.source else { return nil }
        let key = Self.key(remote)
        var taken: RemoteServer?
        var spent: [RemoteServer] = []
        let ahead = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            while taken == nil, let server = state.ready[key]?.popLast() {
                if server.hasEnded { spent.append(server) } else { taken = server }
            }
            return !state.failed.contains(key)
        }
        for server in spent { retire(server) }
        if ahead { startAhead(remote) }
        return taken
    }

    /// Ends `server` (one the pool started) and removes its folder, in the background.
    func retire(_ server: RemoteServer) {
        DispatchQueue.global().async(group: work) { server.stop() }
    }

    /// Waits for every start and end under way, then ends the servers left ready.
    package func shutDown() {
        state.withLock { $0.closed = true }
        work.wait()
        let left = state.withLock { state -> [RemoteServer] in
            defer { state.ready = [:] }
            return state.ready.values.flatMap { $0 }
        }
        for server in left { server.stop() }
    }

    private func startAhead(_ remote: Remote) {
        let number = state.withLock { state -> Int in
            state.started += 1
            return state.started
        }
        let folder = folder.appendingPathComponent("\(remote.name)-\(number)", isDirectory: true)
        DispatchQueue.global().async(group: work) { [self] in
            // A start that fails here is not this case's: the next case starts its own
            // and meets the failure in its own words, and no other is started ahead.
            let giveUp: @Sendable () -> Bool = { [self] in state.withLock { $0.closed } }
            guard let server = try? RemoteServer.start(remote, folder: folder, mark: mark, deadline: .now + .seconds(30), giveUp: giveUp) else {
                state.withLock { _ = $0.failed.insert(Self.key(remote)) }
                return
            }
            let kept = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.ready[Self.key(remote), default: []].append(server)
                return true
            }
            if !kept { server.stop() }
        }
    }

    /// Remotes are the same server when they are declared the same way.
    static func key(_ remote: Remote) -> String {
        "\(remote.name)\u{1F}\(remote.source)"
    }
}
