import Foundation

/// The target's declaration: what it is made of — its files, actions and their
/// arguments, probes, modes, workload, variants, options, remotes, systems and copies of
/// SQLite. A worker sends it once, asked (`describe`); a run reads it once, when it binds
/// its target (`TargetSelection`), and checks every scenario against it before anything
/// runs (`chaos validate --target-exec`).
///
/// Decoded once, with every default applied here, in ``init(from:)``: a target that
/// leaves a field out (a script speaking the protocol) declares the default, and nothing
/// that reads a declaration fills a gap of its own. Two values may be absent, and their
/// absence is what the target declares, not a gap: the ``workload`` (a target with none
/// has no storage catalog) and the ``scenarioFolder`` (a target that ships no scenarios).
package struct TargetDeclaration: Codable, Sendable, Equatable {
    /// Logical file names a scenario may aim at → paths relative to the data directory.
    package var files: [String: String]
    /// Logical names of the files a locked device still serves (``ChaosTarget/unprotectedFiles``).
    package var unprotectedFiles: [String]
    /// Logical names of the files in a shared container (``ChaosTarget/sharedContainer``).
    package var sharedContainer: [String]
    /// The actions and probes the target answers, sorted.
    package var actions: [String]
    package var probes: [String]
    /// The storage modes its health may report (default: ``Health/Mode/standard``).
    package var modes: [String]
    /// The storage catalog's contract, when it has one.
    package var workload: Workload?
    /// The variants it knows, the first the default (empty: any name).
    package var variants: [String]
    /// The arguments of each action that declares them (an absent action: undeclared).
    package var parameters: [String: [ActionParameter]]
    /// How many copies of SQLite its storage runs on (0: plain files; default 1, the
    /// system's).
    package var sqliteLibraries: Int
    /// The options it reads (default: none).
    package var options: [TargetOption]
    /// The remotes its app talks to.
    package var remotes: [Remote]
    /// The systems its scenarios may name (empty: any kebab-case name).
    package var systems: [String]
    /// Keys (or `prefix*`) of records the app makes by itself (``ChaosTarget/ownRecords``).
    package var ownRecords: [String]
    /// Whether the worker sends the app's swift-log records (default `.own`: a target
    /// that does not say sends none).
    package var logging: TargetLogging
    /// The folder of the scenarios it ships, which commands name by name
    /// (``ChaosTarget/scenarioFolder``); nil when it ships none.
    package var scenarioFolder: String?

    package init(files: [String: String], actions: [String], probes: [String], modes: [String] = Health.Mode.standard.map(\.rawValue),
                 workload: Workload? = nil, variants: [String] = [], parameters: [String: [ActionParameter]] = [:],
                 sqliteLibraries: Int = 1, options: [TargetOption] = [], remotes: [Remote] = [], systems: [String] = [],
                 ownRecords: [String] = [], logging: TargetLogging = .own, scenarioFolder: String? = nil,
                unprotectedFiles: [String] = [], sharedContainer: [String] = []) {
        self.files = files
        self.unprotectedFiles = unprotectedFiles
        self.sharedContainer = sharedContainer
        self.actions = actions
        self.probes = probes
        self.modes = modes
        self.workload = workload
        self.variants = variants
        self.parameters = parameters
        self.sqliteLibraries = sqliteLibraries
        self.options = options
        self.remotes = remotes
        self.systems = systems
        self.ownRecords = ownRecords
        self.logging = logging
        self.scenarioFolder = scenarioFolder
    }

    @MainActor
    package init<Target: ChaosTarget>(target: Target.Type) {
        let declared = Target.actions.compactMap { action in action.parameters.map { (action.name, $0) } }
        self.init(files: Target.files, actions: Target.actions.map(\.name).sorted(), probes: Self.probes(of: Target.self),
                  modes: Target.modes.map(\.rawValue), workload: Target.workload, variants: Target.variants,
                  parameters: Dictionary(declared) { first, _ in first }, sqliteLibraries: Target.sqlite.count,
                  options: Target.options, remotes: Target.remotes, systems: Target.systems, ownRecords: Target.ownRecords,
                  logging: Target.logging, scenarioFolder: Target.scenarioFolder?.path, unprotectedFiles: Target.unprotectedFiles,
                  sharedContainer: Target.sharedContainer)
    }

    enum CodingKeys: String, CodingKey {
        case files, unprotectedFiles, sharedContainer, actions, probes, modes, workload, variants, parameters, sqliteLibraries, options, remotes, systems, ownRecords, logging,
             scenarioFolder
    }

    /// The declaration a worker sent, each field it left out at its default.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = TargetDeclaration(files: [:], actions: [], probes: [])
        files = try container.decode([String: String].self, forKey: .files)
        unprotectedFiles = try container.decodeIfPresent([String].self, forKey: .unprotectedFiles) ?? defaults.unprotectedFiles
        sharedContainer = try container.decodeIfPresent([String].self, forKey: .sharedContainer) ?? defaults.sharedContainer
        actions = try container.decode([String].self, forKey: .actions)
        probes = try container.decode([String].self, forKey: .probes)
        modes = try container.decodeIfPresent([String].self, forKey: .modes) ?? defaults.modes
        workload = try container.decodeIfPresent(Workload.self, forKey: .workload)
        variants = try container.decodeIfPresent([String].self, forKey: .variants) ?? defaults.variants
        parameters = try container.decodeIfPresent([String: [ActionParameter]].self, forKey: .parameters) ?? defaults.parameters
        sqliteLibraries = try container.decodeIfPresent(Int.self, forKey: .sqliteLibraries) ?? defaults.sqliteLibraries
        options = try container.decodeIfPresent([TargetOption].self, forKey: .options) ?? defaults.options
        remotes = try container.decodeIfPresent([Remote].self, forKey: .remotes) ?? defaults.remotes
        systems = try container.decodeIfPresent([String].self, forKey: .systems) ?? defaults.systems
        ownRecords = try container.decodeIfPresent([String].self, forKey: .ownRecords) ?? defaults.ownRecords
        logging = try container.decodeIfPresent(TargetLogging.self, forKey: .logging) ?? defaults.logging
        scenarioFolder = try container.decodeIfPresent(String.self, forKey: .scenarioFolder)
    }

    /// Every target answers these two.
    package static let healthProbe = "health"
    package static let surfacedProbe = "surfaced"
    /// What the app claims is kept on its remotes (``ChaosTarget/claims``), for
    /// `claims-hold`: the controller's own question, not one a scenario asks.
    package static let claimsProbe = "chaos.claims"

    @MainActor
    package static func probes<Target: ChaosTarget>(of target: Target.Type) -> [String] {
        ([healthProbe, surfacedProbe] + Target.probes.map(\.name)).sorted()
    }
}

extension TargetDeclaration {
    /// Why the worker sends none of the app's swift-log records; nil when it does.
    package var whyLogsAreNotRead: String? {
        switch logging {
        case .captured: nil
        case .own: "the target sends no swift-log records (logging: .own — it bootstraps swift-log itself), so Chaos reads none"
        }
    }

    /// The seam a storage fault goes through on this target when its step names none:
    /// the fault VFS in its copies of SQLite, or the libc seam for a target on plain files.
    package var storageSeam: StorageSeam { StorageSeam.resolved(nil, sqliteLibraries: sqliteLibraries) }
}

/// A worker's first line: the protocol it speaks, and what changes from one launch to
/// the next — its pid, and whether the libc seam was loaded into it. What the target is
/// made of is asked once, with `describe` (``TargetDeclaration``).
package struct WorkerReady: Codable, Sendable, Equatable {
    package var event = "ready"
    /// The version of the worker protocol the worker speaks (``WorkerProtocolVersion``);
    /// a line without the field speaks ``WorkerProtocolVersion/unversioned``.
    package var `protocol`: Int
    package var pid: Int32
    /// Why the libc seam is not loaded in this worker; nil when it is.
    package var libcSeamMissing: String?

    package init(pid: Int32, libcSeamMissing: String?, protocol version: Int = WorkerProtocolVersion.current) {
        self.protocol = version
        self.pid = pid
        self.libcSeamMissing = libcSeamMissing
    }

    private enum CodingKeys: String, CodingKey {
        case event, `protocol`, pid, libcSeamMissing
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        event = try container.decode(String.self, forKey: .event)
        self.protocol = try container.decodeIfPresent(Int.self, forKey: .protocol) ?? WorkerProtocolVersion.unversioned
        pid = try container.decode(Int32.self, forKey: .pid)
        libcSeamMissing = try container.decodeIfPresent(String.self, forKey: .libcSeamMissing)
    }
}
