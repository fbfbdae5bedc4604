import Foundation
import GRDB

/// What the journal does when the system suspends it. Its store is in the app group its
/// widget shares, and iOS kills an app suspended while it holds a lock on such a file
/// (0xdead10cc). The careful start-ups open the pool with
/// `observesSuspensionNotifications`, and the app posts GRDB's notifications as it goes
/// to the background and comes back; the template does neither.
enum JournalSuspension {
    enum Moment { case willSuspend, didResume }

    static func post(_ moment: Moment, variant: String) {
        guard variant != "template" else { return }
        NotificationCenter.default.post(name: moment == .willSuspend ? Database.suspendNotification : Database.resumeNotification, object: nil)
    }
}
