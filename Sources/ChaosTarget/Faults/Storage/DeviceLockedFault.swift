/// The device is locked: a phone's data protection keeps the app's protected files shut
/// while it stands. Every open, read, write, sync and truncate of them fails — `EPERM`
/// in the libc seam, SQLite's `SQLITE_CANTOPEN` and `SQLITE_IOERR_*` in the fault VFS —
/// files the app already has open included; renames and deletes go through, as a
/// locked device lets them (they change the folder, not the file's protected content).
/// Clearing it is the user unlocking the device.
///
/// ```yaml
/// - stop
/// - fault: device-locked   # armed while the app is closed: the next launch is a
/// - launch                 #   prewarm launch, before the first unlock
/// - do: workload.read
/// - clear: device-locked   # the user unlocks
/// ```
///
/// Its files are all the app's files under its data folder — on a target on SQLite,
/// SQLite's through the fault VFS and the other declared files through the libc seam —
/// but those its target declares unprotected (``ChaosTarget/unprotectedFiles``: a file an iOS app creates
/// with `FileProtectionType.none`, which a locked device still serves); `file:` narrows
/// it to one declared file, `path:` to a pattern. Armed while the app is closed, the next
/// launch is a *prewarm* launch: iOS starts apps before the first unlock after a boot,
/// when their reads fail and an app that takes "cannot read" for "empty" or "damaged"
/// starts over and writes over the user's data once the device unlocks
/// (firebase/firebase-ios-sdk#9622, RevenueCat/purchases-ios#4623).
package struct DeviceLockedFault: StorageFault {
    package static let kind = "device-locked"
    package static let summary = "Lock the device: opens, reads and writes of the app's protected files fail (EPERM), open files included, until cleared."
    package static let example = """
        - fault: device-locked
        """
    package static let parameterKeys: [String] = []
    package static let honoursDataProtection = true

    package init() {}

    package init(parameters: ScenarioParameters) throws(ScenarioError) {}

    package var label: String { Self.kind }

    package var operations: Set<StorageCall.Operation> { [.open, .read, .write, .sync, .truncate] }

    package func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        operations.contains(call.operation) && call.isOn(on)
    }

    /// Each call fails with its operation's own SQLite code (an open: `SQLITE_CANTOPEN`),
    /// and `EPERM` in libc, what a protected file answers on a locked device.
    package func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        .fail(IOErrorFault.code(for: call.operation), errno: .eperm)
    }
}

extension DeviceLockedFault: HuntedFault {
    package static let huntGroup = HuntGroup.storage
    /// As often as an I/O error: drawn before a launch, it is a prewarm launch.
    package static let huntWeight = 1

    /// It stands until the schedule's clear (the user unlocks).
    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { [] }
}
