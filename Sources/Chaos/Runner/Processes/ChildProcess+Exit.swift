import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a ``ChildProcess`` ends: reaped by this process or told by its fork server,
/// waited for without a deadline once it was told to stop, or with one.
extension ChildProcess {
    /// Waits for the child to end and returns how. Blocks; call after the child was
    /// told to stop, saw end of output, or was killed.
    package func waitForExit() -> Termination {
        lock.lock(); defer { lock.unlock() }
        if let termination { return termination }
        if let forkServer {
            let result = forkServer.termination(of: pid, until: .now + .seconds(30)) ?? .exited(-1)
            termination = result
            return result
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR {
                // Already reaped elsewhere: nothing more can be known.
                termination = .exited(-1)
                SpawnedChildren.unregister(pid)
                return .exited(-1)
            }
        }
        return reaped(status: status)
    }

    /// Records how the child ended, once it was reaped. Under `lock`.
    private func reaped(status: Int32) -> Termination {
        let result: Termination = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
        termination = result
        SpawnedChildren.unregister(pid)
        return result
    }

    /// The child's exit, if it has already ended (never blocks).
    package func pollExit() -> Termination? {
        lock.lock(); defer { lock.unlock() }
        if let termination { return termination }
        if let forkServer {
            termination = forkServer.termination(of: pid, until: nil)
            return termination
        }
        var status: Int32 = 0
        let reapedPID = waitpid(pid, &status, WNOHANG)
        guard reapedPID == pid else { return nil }
        return reaped(status: status)
    }

    /// Waits until the child ends, `deadline` passes or Ctrl-C; kills the group unless
    /// it ended. Its output is read and dropped meanwhile (a child blocked on a full pipe
    /// would never end). The end of the child is the event, not the end of its output: a
    /// descendant may hold the output open long after the child is gone, and a child may
    /// close its output and live on.
    package func waitForExit(deadline: ContinuousClock.Instant) -> (Termination, killed: Bool) {
        let clock = ContinuousClock()
        while true {
            if let done = pollExit() { return (done, false) }
            let remaining = deadline - clock.now
            if remaining <= .zero || RunInterruption.requested {
                killTree()
                return (waitForExit(), true)
            }
            let slice = remaining.pollTimeout(cap: 200)
            let ended = awaitExitOrOutput(timeoutMs: slice)
            if let forkServer, ended || lock.withLock({ stdoutFD < 0 }) {
                // How a forked child ended is its server's word: waited for, not polled.
                if let done = forkServer.termination(of: pid, until: min(deadline, clock.now + .milliseconds(Int64(slice)))) {
                    lock.withLock { termination = done }
                    return (done, false)
                }
            } else if ended {
                // It has ended: reaping it does not block.
                return (waitForExit(), false)
            }
        }
    }

    /// One bounded wait for the child's end (its pidfd) or output to drop. True when the
    /// pidfd says the child has ended.
    private func awaitExitOrOutput(timeoutMs: Int32) -> Bool {
        let (output, exit) = lock.withLock { (stdoutFD, exitFD) }
        var descriptors: [pollfd] = []
        if output >= 0 { descriptors.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
        if exit >= 0 { descriptors.append(pollfd(fd: exit, events: Int16(POLLIN), revents: 0)) }
        // Without a pidfd, once the output is closed nothing wakes the wait: poll the exit often.
        let timeout = exit >= 0 ? timeoutMs : min(timeoutMs, output >= 0 ? 50 : 5)
        let ready = descriptors.isEmpty ? poll(nil, 0, timeout) : poll(&descriptors, nfds_t(descriptors.count), timeout)
        guard ready > 0 else { return false }
        if output >= 0, let first = descriptors.first, first.revents != 0 {
            lock.withLock {
                guard stdoutFD >= 0 else { return }
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let count = chunk.withUnsafeMutableBytes { Glibc.read(stdoutFD, $0.baseAddress, $0.count) }
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { close(stdoutFD); stdoutFD = -1 }
                lines.clear()
            }
        }
        return exit >= 0 && descriptors.last?.revents ?? 0 != 0
    }
}
