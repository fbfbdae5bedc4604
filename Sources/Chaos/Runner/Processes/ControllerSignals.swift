import Foundation

/// What the controller's process does with signals before it starts an app.
package enum ControllerSignals {
    /// SIGPIPE ignored: a write to the pipe of an app that died mid-request fails with
    /// EPIPE, which the code that writes expects, instead of killing the controller (and
    /// its report) — SwiftNIO ignores it too, but only once a socket is opened, so a
    /// target with no server was exposed. Children get the default back at spawn
    /// (``ChildProcess``). Done by the `chaos` command first, and by every case runner
    /// (a controller inside `swift test`).
    package static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
