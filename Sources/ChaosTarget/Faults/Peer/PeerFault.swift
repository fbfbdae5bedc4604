/// A fault of another process of the app on its shared store (``FaultFamily/peer``): the
/// kind decides what that process does to the store (``PeerPlan``); the controller's
/// peer seam, a second worker of the target, carries it out without knowing the kind.
package protocol PeerFault: Fault {
    var plan: PeerPlan { get }
}

/// What the peer does: takes the store's write lock, writes pages it never commits
/// (`uncommitted`), lets go after `holding` (nil: never), and is killed once it holds
/// it (`killed`); or migrates the store as a newer version of the app would (`migrates`).
package struct PeerPlan: Sendable, Equatable {
    package var holding: Duration?
    package var uncommitted = false
    package var killed = false
    package var migrates = false
}
