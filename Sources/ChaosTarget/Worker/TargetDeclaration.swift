import Foundation

/// The target's declaration: what it is made of — its files, actions and their
/// arguments, probes, modes, workload, variants, options and copies of SQLite. A
/// worker's first line (the `ready` event) carries it; a run reads it once, when it
/// binds its target (``TargetSelection``), and checks every scenario against it
/// before anything runs (`chaos validate --target-exec`).
package struct TargetDeclaration: Codable, Sendable, Equatable {
    package var event = "ready"
    /// Logical file names a scenario may aim at → paths relative to the data directory.
    package var files: [String: String]
    /// The actions and probes the target answers, sorted.
    package var actions: [String]
    package var probes: [String]
    /// The storage modes its health may report.
    package var modes: [String]?
    /// The storage catalog's contract, when it has one.
    package var workload: Workload?
    /// The variants it knows, the first the default (nil or empty: any name).
    package var variants: [String]?
    /// The arguments of each action that declares them (an absent action: undeclared).
    package var parameters: [String: [ActionParameter]]?
    /// How many copies of SQLite its storage runs on (0: plain files; nil: an older
    /// target, taken as the system's).
    package var sqliteLibraries: Int?
    /// Why the libc seam is not loaded in the worker; nil when it is.
    package var libcSeamMissing: String?
    /// The options it reads (nil: an older target, whose options are not checked).
    package var options: [TargetOption]?
    /// The remotes its app talks to.
    package var remotes: [Remote]?
    /// The systems its scenarios may name (nil or empty: any kebab-case name).
    package var systems: [String]?
    /// Keys (or `prefix*`) of records the app makes by itself (``ChaosTarget/ownRecords``).
    package var ownRecords: [String]?
    /// Whether the worker sends the app's swift-log records (nil: an older target, which does not).
    package var logging: TargetLogging?
    package var pid: Int32

    package init(files: [String: String], actions: [String], probes: [String], modes: [String]? = nil,
                 workload: Workload? = nil, variants: [String]? = nil, pid: Int32) {
        self.files = files
        self.actions = actions
        self.probes = probes
        self.modes = modes
        self.workload = workload
        self.variants = variants
        self.pid = pid
    }

    @MainActor
    package init<Target: ChaosTarget>(target: Target.Type, pid: Int32) {
        self.init(files: Target.files, actions: Target.actions.map(\.name).sorted(), probes: Self.probes(of: Target.self),
                  modes: Target.modes.map(\.rawValue), workload: Target.workload,
                  variants: Target.variants.isEmpty ? nil : Target.variants, pid: pid)
        sqliteLibraries = Target.sqlite.count
        libcSeamMissing = LibcSeam.whyNotLoaded
        options = Target.options
        remotes = Target.remotes.isEmpty ? nil : Target.remotes
        systems = Target.systems.isEmpty ? nil : Target.systems
        ownRecords = Target.ownRecords.isEmpty ? nil : Target.ownRecords
        logging = Target.logging
        let declared = Target.actions.compactMap { action in action.parameters.map { (action.name, $0) } }
        parameters = declared.isEmpty ? nil : Dictionary(declared) { first, _ in first }
    }

    /// Every target answers these two.
    package static let healthProbe = "health"
    package static let surfacedProbe = "surfaced"

    @MainActor
    package static func probes<Target: ChaosTarget>(of target: Target.Type) -> [String] {
        ([healthProbe, surfacedProbe] + Target.probes.map(\.name)).sorted()
    }
}

extension TargetDeclaration {
    /// Why the worker sends none of the app's swift-log records; nil when it does.
    package var whyLogsAreNotRead: String? {
        switch logging {
        case .captured?: nil
        case .own?: "the target bootstraps swift-log itself (logging: .own), so Chaos reads no log records"
        case nil: "the target was built with a Chaos that did not read logs: rebuild it"
        }
    }
}
