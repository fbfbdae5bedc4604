/// When an armed fault fires: the same for every kind that fires repeatedly (SQLite's
/// test_vfs `TestFaultInject`, fail-rs's `[p%][cnt*]`). It sits on the fault step, at
/// the same level as the fault's own keys:
///
/// ```yaml
/// - fault: throw
///   point: store/favorites/fetch
///   after: 3          # let 3 operations through first
///   times: 2          # then fire twice (or `always`: persistent)
///   probability: 50%  # each eligible operation fires with this chance
/// ```
///
/// The default, `Trigger()`, fires on every operation from the first, for ever.
/// ``TriggerState`` is the decider built from it.
package struct Trigger: Sendable, Equatable, Codable {
    /// Operations let through before the fault is eligible.
    package var after: Int
    /// Firings before the fault goes quiet; nil for always (a persistent fault).
    package var times: Int?
    /// The chance that an eligible operation fires, in `0...1`; nil for certainty.
    package var probability: Double?
    /// Which storage file the fault targets, for storage faults that take it.
    package var on: StorageFile?
    /// Storage faults: only files whose path under the data folder matches this glob
    /// (`*.json`, `drafts/current.json`; fnmatch, `*` does not cross a `/`).
    package var path: String?
    /// Storage faults: the seam that carries the fault out (`vfs`, `libc`); nil: the one
    /// that reaches the target (``StorageSeam/resolved(_:sqliteLibraries:)``).
    package var seam: StorageSeam?
    /// Storage faults: only the calls on one of the target's declared files, by its
    /// logical name (`backup`), and on what its code writes beside it
    /// (``DeclaredFileOwnership``); nil: any file.
    package var file: String?

    package init(after: Int = 0, times: Int? = nil, probability: Double? = nil, on: StorageFile? = nil,
                 path: String? = nil, seam: StorageSeam? = nil, file: String? = nil) {
        self.after = after
        self.times = times
        self.probability = probability
        self.on = on
        self.path = path
        self.seam = seam
        self.file = file
    }

    /// The trigger keys, declared once. `on`, `path`, `seam` and `file` only for faults
    /// whose ``Fault/acceptsStorageFile`` is true.
    package static let keys = ["after", "times", "probability", "on", "path", "seam", "file"]
    package static let storageKeys: Set<String> = ["on", "path", "seam", "file"]
    package static let afterRange = 0...1_000_000_000
    package static let timesRange = 1...1_000_000_000

    /// Reads the trigger keys of a fault step.
    package init(parameters: ScenarioParameters, acceptsStorageFile: Bool) throws(ScenarioError) {
        self.init()
        after = try parameters.int("after", in: Self.afterRange, default: 0)
        if let text = try parameters.string("times"), text.trimmingSpaces != "always" {
            guard let count = ScenarioValue.integer(text.trimmingSpaces) else {
                throw parameters.error("'times' of \(parameters.context): expected a count or 'always', found '\(text)'", at: "times")
            }
            guard Self.timesRange.contains(count) else {
                throw parameters.error("'times' of \(parameters.context) must be from 1 to \(Self.timesRange.upperBound) or 'always', found \(count)", at: "times")
            }
            times = count
        }
        if let chance = try parameters.percent("probability") {
            guard chance > 0 else {
                throw parameters.error("'probability' of \(parameters.context) is 0%, so the fault would never fire; use a positive percentage", at: "probability")
            }
            probability = chance < 1 ? chance : nil
        }
        if acceptsStorageFile, let file = try parameters.oneOf("on", StorageFile.allCases.map(\.rawValue)) {
            on = StorageFile(rawValue: file)
        }
        if acceptsStorageFile, let glob = try parameters.string("path") {
            let trimmed = glob.trimmingSpaces
            guard !trimmed.isEmpty, !trimmed.hasPrefix("/"), !trimmed.split(separator: "/").contains("..") else {
                throw parameters.error("'path' of \(parameters.context) is a pattern under the app's data folder, like '*.json' or 'drafts/current.json'; found '\(glob)'", at: "path")
            }
            path = trimmed
        }
        if acceptsStorageFile, let name = try parameters.oneOf("seam", StorageSeam.choices) {
            seam = StorageSeam(rawValue: name)
        }
        if acceptsStorageFile, try parameters.string("file") != nil {
            file = try LogicalFileName.read(parameters)
        }
    }

    /// `after 3, 2 times, 50%, on wal`; empty for the default trigger.
    package var label: String {
        var parts: [String] = []
        if after > 0 { parts.append("after \(after)") }
        if let times { parts.append(times == 1 ? "once" : "\(times) times") }
        if let probability { parts.append(ScenarioPercent.format(probability)) }
        if let on { parts.append("on \(on.rawValue)") }
        if let file { parts.append("file \(file)") }
        if let path { parts.append("path \(path)") }
        if let seam { parts.append("through \(seam.rawValue)") }
        return parts.joined(separator: ", ")
    }
}

/// The storage file a storage fault targets, for `on:`.
package enum StorageFile: String, Sendable, Codable, CaseIterable {
    case store, journal, wal, any
}

extension Trigger {
    /// What is left of `times` after `fired` firings: nil when nothing is left (the
    /// fault is spent), `.some(nil)` for a fault that always fires.
    package func remaining(afterFiring fired: Int) -> Int?? {
        guard let times else { return .some(nil) }
        return times > fired ? .some(times - fired) : nil
    }
}
