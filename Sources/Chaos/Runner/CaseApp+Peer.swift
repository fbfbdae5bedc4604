import ChaosTarget

/// `do: … in: peer`: the app's other process on its shared store — its widget, its
/// extension, its background task — running the target's own actions. A second worker of
/// the target on the case's data folder, started and launched at the first such step
/// (the target's `launch()`, as the widget opens the store), kept until the case ends or
/// the app is killed (a power cut ends it too). What it acknowledges is the user's as
/// much as what the app does: its acknowledgements go to the case's log, and the final
/// check holds both processes to them. The faults armed in the app are the app's: the
/// peer runs without them.
extension CaseApp {
    /// The running peer; started and launched when there is none.
    func peerProcess() throws(CaseEnd) -> AppProcess {
        if let peer, peer.isRunning { return peer }
        guard sharesAContainer else {
            throw .notApplicable("another process of the app works on the files of its shared container, and the target declares none (sharedContainer)")
        }
        let log = log
        let clock = clock
        let started = process.sibling(role: "peer", listeners: AppProcess.Listeners(heard: { news in
            // Only what the peer tells the user: the seams arm, cut and judge the app.
            if case let .event(event) = news { log.record(event, atMs: clock.elapsedMs) }
        }))
        peer = started
        do { try started.start() } catch { try absorb(error) }
        _ = try ask(WorkerRequest(.launch), of: started)
        return started
    }

    /// Ends the peer, if it runs.
    func endPeer() {
        peer?.kill()
        if let peer { process.leftBehind += peer.leftBehind }
        peer = nil
    }
}

extension CaseApp {
    /// The case is over: the peer goes, and the last worker — stopped gracefully after a
    /// complete case, killed otherwise.
    func endOfCase(complete: Bool) {
        endPeer()
        guard isRunning else { return }
        if complete { _ = try? stop() } else { _ = kill() }
    }

    /// Every process of the app, killed: the case's last resort, on every path.
    func killAll() {
        endPeer()
        process.kill()
    }
}
