import Foundation

/// A storage fault armed in a seam (the VFS or libc), with its running state: the
/// seam's view of it. The policy keeps a list of these; each asks its own fault.
package protocol StorageArming: Sendable {
    var id: String { get }
    var kind: String { get }
    /// The seam whose calls it sees.
    var seam: StorageSeam { get }
    /// Every seam whose calls it sees: its own, and for a fault that honours data
    /// protection armed in the VFS, libc too (a locked device shuts every file of the
    /// app, SQLite's and the rest alike).
    var seams: Set<StorageSeam> { get }
    /// Whether `path` (full) is one of the files the target declares: what the calls of a
    /// seam beyond its own reach (a locked device's libc calls in a SQLite app shut the
    /// declared files SQLite does not write, not a test harness's own).
    func declares(_ path: String) -> Bool
    /// NUL-terminated directory prefix ending in "/": only files under it count.
    var directory: [CChar] { get }
    /// Asks the fault about `call`: nil when the call is not one of its operations,
    /// else the effect when the trigger fired on it (nil when it did not), the hit, and
    /// how many times the fault has fired now.
    mutating func decide(_ call: StorageCall) -> (effect: StorageEffect?, hit: Int, fired: Int)?
    /// Where it stands, for the worker's reply.
    var progress: FaultStanding { get }
}

/// ``StorageArming`` for one kind: the fault's value, its trigger and counter, its memory.
package struct StorageArmingOf<F: StorageFault>: StorageArming {
    package let id: String
    package let fault: F
    package let trigger: Trigger
    package let seed: UInt64
    package let directory: [CChar]
    package let seam: StorageSeam
    package let seams: Set<StorageSeam>
    /// The declared file the step's `file:` aims at; nil: any file.
    package let ownership: DeclaredFileOwnership?
    /// The declared files the fault spares: those a locked device still serves, for a
    /// fault that honours data protection (``StorageFault/honoursDataProtection``).
    package let spared: [DeclaredFileOwnership]
    /// The declared paths, relative to the data folder.
    private let declared: [String]
    package var counter: TriggerCounter
    package var memory: F.Memory

    /// `files`: the target's declared files, which a `file:` names (an undeclared name
    /// was refused when the scenario was bound to the target; here it matches nothing).
    /// `unprotected`: the logical names of those a locked device still serves.
    package init(_ armed: ArmedFault, fault: F, directory: String, seam: StorageSeam = .vfs, files: [String: String] = [:],
                 unprotected: [String] = []) throws {
        id = armed.id
        spared = F.honoursDataProtection ? unprotected.compactMap { DeclaredFileOwnership(file: $0, among: files) } : []
        self.seam = seam
        seams = F.honoursDataProtection && seam == .vfs ? [.vfs, .libc] : [seam]
        declared = DeclaredFileOwnership.paths(among: files)
        ownership = armed.trigger.file.map { DeclaredFileOwnership(file: $0, among: files) ?? DeclaredFileOwnership.nothing }
        self.fault = fault
        trigger = armed.trigger
        seed = armed.seed
        self.directory = Array(directory.utf8CString)
        counter = armed.counter
        if let saved = armed.memory {
            memory = try JSONDecoder().decode(F.Memory.self, from: Data(saved.utf8))
        } else {
            memory = fault.initialMemory
        }
    }

    package var kind: String { F.kind }

    package mutating func decide(_ call: StorageCall) -> (effect: StorageEffect?, hit: Int, fired: Int)? {
        if let pattern = trigger.path, !Self.matches(pattern, call.path, under: directory) { return nil }
        if let ownership, Self.relative(call.path, under: directory).map(ownership.owns) != true { return nil }
        if !spared.isEmpty, let relative = Self.relative(call.path, under: directory), spared.contains(where: { $0.owns(relative) }) { return nil }
        guard fault.isHit(call, on: trigger.on ?? .any, memory: &memory) else { return nil }
        guard counter.hit(trigger, seed: seed) else {
            fault.passed(call, memory: &memory)
            return (nil, counter.hits, counter.fired)
        }
        // Each firing draws from a stream of its own hit, so no state beyond the counter is kept.
        var rng = SplitMix64(seed: SplitMix64.subseed(seed, "\(F.kind)/effect/\(counter.hits)"))
        return (fault.effect(of: call, memory: &memory, rng: &rng), counter.hits, counter.fired)
    }

    package func declares(_ path: String) -> Bool {
        Self.relative(path, under: directory).flatMap { DeclaredFileOwnership.owner(of: $0, among: declared) } != nil
    }

    /// Whether `path` (full) is, under `directory` (a "/"-ended prefix), a file `pattern` matches.
    static func matches(_ pattern: String, _ path: String, under directory: [CChar]) -> Bool {
        guard let relative = relative(path, under: directory) else { return false }
        return fnmatch(pattern, relative, FNM_PATHNAME) == 0
    }

    /// `path` (full) relative to `directory` (a "/"-ended prefix); nil when outside it.
    static func relative(_ path: String, under directory: [CChar]) -> String? {
        let prefix = String(decoding: directory.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    package var progress: FaultStanding {
        let encoded = F.Memory.self == NoMemory.self ? nil : (try? JSONEncoder().encode(memory)).flatMap { String(data: $0, encoding: .utf8) }
        return FaultStanding(id: id, counter: counter, memory: encoded)
    }
}
