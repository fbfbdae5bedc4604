import Foundation

/// A fault the controller applies to one of the app's files while the app is down (or,
/// for a file deleted or replaced, while it runs: ``actsWhileRunning``).
/// It acts once, when its step runs, so it takes no trigger.
///
/// It decides (``plan(fileSize:rng:)``, pure and seeded); ``FileDamage`` carries the
/// plan out on the real file.
package protocol FileFault: Fault {
    /// The logical file name, as the target names its files (`store`, `backup`).
    /// The runner maps it to a path.
    var file: String { get }

    /// What to do to a file of `fileSize` bytes, with choices drawn from `rng`.
    func plan(fileSize: Int, rng: inout SplitMix64) -> FileDamagePlan

    /// The same for a file of a known kind: a SQLite database, or a plain file of a
    /// target that keeps its data without SQLite (whose first bytes hold no header to
    /// spare). Default: the kind does not matter.
    func plan(fileSize: Int, format: FileFormat, rng: inout SplitMix64) -> FileDamagePlan

    /// What the seam does before the plan is made: nothing, or fold the WAL into the
    /// store so that the damage reaches pages SQLite reads (`scope: database`).
    var preparation: FileDamagePreparation { get }

    /// Whether the file must exist for the fault to do anything (damage does; putting
    /// another file in its place does not).
    static var needsTheFile: Bool { get }

    /// Whether what it does shows only to a process that honours permission bits: the
    /// seam then runs the app's workers without root's override of them.
    static var needsPermissionBits: Bool { get }

    /// Whether it may act while the app runs, its files open: a file deleted or replaced
    /// under it (a cleaner, a restore, another process). Damage to bytes waits for the
    /// app to be down, as a user's files are damaged between two launches. Default: false.
    static var actsWhileRunning: Bool { get }

    /// Whether what the file held is gone after it (damaged, deleted, replaced), rather
    /// than only out of reach: a journal it acts on takes its commits with it, for any app.
    static var losesWhatTheFileHeld: Bool { get }
}

/// What a damaged file is to the app.
package enum FileFormat: Sendable, Equatable {
    /// A SQLite database (or one of its companions): pages, a header, b-trees.
    case sqlite
    /// Anything else: a JSON list, a property list, a log.
    case plain
}

extension FileFault {
    package func plan(fileSize: Int, format: FileFormat, rng: inout SplitMix64) -> FileDamagePlan {
        plan(fileSize: fileSize, rng: &rng)
    }

    package static var family: FaultFamily { .file }
    package static var acceptsTrigger: Bool { false }
    package var preparation: FileDamagePreparation { .none }
    package static var needsTheFile: Bool { true }
    package static var needsPermissionBits: Bool { false }
    package static var losesWhatTheFileHeld: Bool { true }
    package static var actsWhileRunning: Bool { false }
}

/// What the file seam does before a file fault makes its plan.
package enum FileDamagePreparation: Sendable, Equatable {
    case none
    /// Checkpoint the store's WAL into the store through SQLite's plain VFS, so every
    /// page SQLite reads lives in the file the damage lands in.
    case checkpointWAL
}

/// Logical file names: `[a-z0-9][a-z0-9._-]*`, at most 64 characters. No `/`, so a
/// scenario cannot point a fault outside the app's scratch directory.
enum LogicalFileName {
    static let defaultName = "store"

    static func read(_ parameters: ScenarioParameters) throws(ScenarioError) -> String {
        let name = try parameters.string("file", default: defaultName)
        let valid = name.count <= 64
            && name.first.map { $0.isASCII && ($0.isLowercase || $0.isNumber) } == true
            && name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
        guard valid else {
            throw parameters.error(
                "'file' of \(parameters.context) must be a logical file name like 'store' ([a-z0-9][a-z0-9._-]*, no paths), found '\(name)'",
                at: "file"
            )
        }
        return name
    }
}
