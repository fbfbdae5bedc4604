/// A kind that `chaos hunt` draws: which of a schedule's draws it belongs to, its share
/// of them, and the keys of its step, drawn by the kind itself in its own file. The
/// generator names no kind: it draws a group (``HuntGroup``), then a kind of that group
/// from the catalog, in catalog order, by ``huntWeight``.
package protocol HuntedFault: Fault {
    /// Which of the generator's draws it belongs to.
    static var huntGroup: HuntGroup { get }
    /// Its share of its group's draws, among the kinds that may be drawn there.
    static var huntWeight: Int { get }
    /// It fires a few times (`times: 1–3`), never for ever, and shrinking keeps its
    /// count: a fault whose standing for good is no state an app could recover from.
    /// A group draws such kinds one time in five. Default: false.
    static var firesAFewTimes: Bool { get }
    /// Shrinking may lower its numbers (a count, an after). Default: true; false for a
    /// kind whose numbers are what it is (a damage's size).
    static var numbersShrink: Bool { get }
    /// It acts on a declared file that is a folder. Default: false.
    static var actsOnFolders: Bool { get }
    /// The keys of one step, after the group's own (the file, point or remote drawn for
    /// the group), drawn from `draws`.
    static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey]
}

extension HuntedFault {
    package static var firesAFewTimes: Bool { false }
    package static var numbersShrink: Bool { true }
    package static var actsOnFolders: Bool { false }
}

/// The generator's draws that a kind belongs to, and what a hunt aimed at a crash leans
/// towards (`HuntAim`).
package enum HuntGroup: Sendable, Hashable, CaseIterable {
    case storage, diskFull, clock, fileDamage, network, powerCut, point
    /// Another process of the app on its shared store: drawn only for a target with a
    /// SQLite store in a shared container.
    case peer
}

/// What a kind may know of the schedule it is drawn into.
package struct HuntSituation: Sendable {
    /// The app is closed (the fault comes before a launch); otherwise it runs.
    package var appIsClosed: Bool
    /// The storage operations the target's seam sees (SQLite's, or the libc seam's).
    package var storageOperations: [String]

    package init(appIsClosed: Bool, storageOperations: [String]) {
        self.appIsClosed = appIsClosed
        self.storageOperations = storageOperations
    }
}

/// A key of a step and its value, as a scenario file writes it.
package struct HuntKey: Sendable, Equatable {
    package var key: String
    package var value: ScenarioValue

    package init(_ key: String, _ value: ScenarioValue) {
        self.key = key
        self.value = value
    }
}

extension FaultCatalog {
    /// The kinds a hunt draws in `group`, in catalog order.
    package static func hunted(in group: HuntGroup) -> [any HuntedFault.Type] {
        all.compactMap { $0 as? any HuntedFault.Type }.filter { $0.huntGroup == group && $0.huntWeight > 0 }
    }
}
