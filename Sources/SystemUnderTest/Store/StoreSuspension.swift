import Foundation
import GRDB

/// What the app does when the system suspends it. Its store lives in a shared container
/// (the favourites widget reads it), and iOS kills an app suspended while it holds a lock
/// on such a file (0xdead10cc: GRDB#957, GRDB#660). Every connection of the store observes
/// GRDB's suspension notifications (``AppStore/openPersistent(_:)``); posting them is the
/// app's choice.
public enum StoreSuspension {
    /// The app goes to the background. Hardened: the store stops taking locks, and a
    /// transaction under way is interrupted and rolled back — the save fails, told, and
    /// nothing it acknowledged is lost. Legacy: nothing; the old code never heard of
    /// suspension, and a save under way keeps its lock.
    public static func willSuspend(_ variant: AppVariant) {
        guard variant == .hardened else { return }
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    }

    /// Back in the foreground: the store takes locks again.
    public static func didResume(_ variant: AppVariant) {
        guard variant == .hardened else { return }
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
    }
}
