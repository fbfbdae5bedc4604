import ChaosTarget
import FaultPoints
import Foundation

/// What a hunt can reach in its target: the actions and their arguments, the files, the
/// storage operations of its seam, its remotes (all from the declaration), and the fault
/// points its code hit in a plain first run (``discover(options:jobs:)``). Nothing in it
/// is written for the reference app: a user's target gets the same hunt.
package struct HuntSurface: Sendable, Equatable {
    package struct Action: Sendable, Equatable {
        package var name: String
        package var parameters: [ActionParameter]
        /// The system it belongs to, when its name begins with one (`family.create`).
        package var system: String?
    }

    package var systems: [String]
    package var actions: [Action]
    package var workload: Workload
    /// Logical file names, sorted.
    package var files: [String]
    /// Each logical file's declared path under the data folder: what a call the seams saw
    /// is told apart by (``RunSignature``).
    package var filePaths: [String: String]
    /// The storage operations an `io-error` may name: SQLite's through the fault VFS,
    /// the calls the libc seam sees for a target on plain files.
    package var storageOperations: [String]
    /// The fault points the plain first run hit, sorted.
    package var points: [String]
    package var remotes: [String]
    /// Declared files that are folders (learnt from a plain run): deleted, never garbled.
    package var folders: [String] = []
    /// The target declares a SQLite store in a shared container: another process of the
    /// app may work on it (the peer faults).
    package var sharesItsStore = false

    package init(declaration: TargetDeclaration, workload: Workload, points: [String]) {
        let systems = declaration.systems.isEmpty ? [ScenarioTargetCheck.storageSystem] : declaration.systems
        self.systems = systems
        actions = declaration.actions.map { name in
            let prefix = name.split(separator: ".").first.map(String.init)
            return Action(name: name, parameters: declaration.parameters[name] ?? [],
                          system: prefix.flatMap { systems.contains($0) ? $0 : nil })
        }
        self.workload = workload
        files = declaration.files.keys.sorted()
        filePaths = declaration.files
        storageOperations = declaration.sqliteLibraries > 0
            ? ["read", "write", "sync", "open", "lock", "truncate"] : ["read", "write", "sync", "open", "truncate"]
        self.points = points
        remotes = declaration.remotes.map(\.name).sorted()
        sharesItsStore = PeerSeam.sharedStore(of: declaration) != nil
    }

    /// The files a damage step aims at, the store first: every declared one but the
    /// shared-memory index (`-shm`), which SQLite rebuilds and a damage to it proves nothing.
    var damageableFiles: [String] {
        let files = files.filter { $0 != "shm" }
        return files.contains("store") ? ["store"] + files.filter { $0 != "store" } : files
    }

    /// One value a parameter may take, drawn from `random`: small numbers (a count of 1 to
    /// 5, an id of 1 to 5), text from a small pool shared by every parameter (so that a
    /// name one action creates is often the one the next asks for), and the odd value at
    /// an edge (an empty name, the range's bounds).
    static func value(for parameter: ActionParameter, _ random: inout HuntDraws) -> ScenarioValue {
        switch parameter.kind {
        case let .int(range):
            let small = Array(range.lowerBound...min(range.upperBound, range.lowerBound + 4))
            // The upper bound only when it is small: a count of a million is a benchmark, not a schedule.
            let edges = [range.lowerBound] + (range.upperBound <= 100 ? [range.upperBound] : [])
            return .int(random.chance(85) ? random.pick(small) : random.pick(edges))
        case .text: return .string(random.pick(textPool))
        case .textOrNumber: return random.chance(50) ? .int(1 + random.below(3)) : .string(random.pick(textPool))
        case .flag: return .bool(random.chance(70))
        case let .choice(words): return words.isEmpty ? .string("") : .string(random.pick(words))
        }
    }

    /// Names a hunt types: a plain one repeated (so that names match), an empty one,
    /// spaces, accents and a quote.
    static let textPool = ["Tiny", "Tiny", "Rivera", "", " ", "Zoë “Q”"]

    /// The arguments of a plain call: each parameter at its most ordinary value.
    static func plainValue(for parameter: ActionParameter) -> ScenarioValue {
        switch parameter.kind {
        case let .int(range): .int(range.contains(2) ? 2 : range.lowerBound)
        case .text: .string("Tiny")
        case .textOrNumber: .string("Tiny")
        case .flag: .bool(true)
        case let .choice(words): .string(words.first ?? "")
        }
    }
}
