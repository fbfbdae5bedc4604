import ChaosTarget

/// The small mutations of one fault step: what it is aimed at, the operation it fails,
/// the count of its trigger — the one key that makes two nearly equal schedules reach
/// different code (the store's `fsync` failing, or its backup's; on the first write, or
/// the third). Each is nil for a step it does not apply to; everything else in the
/// step is kept.
extension HuntMutator {
    /// The keys a trigger counts with, and the most each is drawn up to (a few times:
    /// `times` of a kind that fires a few times, at most 3).
    static let countKeys: [String: Int] = ["after": 6, "times": 6, "after-writes": 12, "at-sync": 4]

    /// The files a fault step may be aimed at instead of its own: for a storage fault of
    /// a target with several declared files, every other one or none (every file); for
    /// damage to a file, every other file it may damage (a folder only for a kind that
    /// acts on folders). Empty for any other step.
    func otherTargets(of step: WrittenStep) -> [String?] {
        guard case let .fault(kind, keys) = step, let hunted = FaultCatalog.kind(named: kind) as? any HuntedFault.Type else { return [] }
        let current = keys.first { $0.key == "file" }?.value.stringValue
        let files = generator.surface.files
        switch hunted.huntGroup {
        case .storage where files.count > 1:
            return ([nil] + files.map(Optional.some)).filter { $0 != current }
        case .fileDamage:
            let folders = generator.surface.folders
            return generator.surface.damageableFiles.filter { $0 != current && (hunted.actsOnFolders || !folders.contains($0)) }
        default:
            return []
        }
    }

    /// The step aimed at another of its ``otherTargets(of:)``: its `file:` key changed in
    /// place, put first (as the generator writes it) or dropped.
    func retargeted(_ step: WrittenStep, _ random: inout HuntDraws) -> WrittenStep? {
        let targets = otherTargets(of: step)
        guard case .fault(let kind, var keys) = step, !targets.isEmpty else { return nil }
        let target = random.pick(targets)
        let at = keys.firstIndex { $0.key == "file" }
        switch (target, at) {
        case let (file?, at?): keys[at].value = .string(file)
        case let (file?, nil): keys.insert(HuntKey("file", .string(file)), at: 0)
        case let (nil, at?): keys.remove(at: at)
        case (nil, nil): return nil
        }
        return .fault(kind, keys)
    }

    /// The step failing another operation its seam sees (`op: sync` for `op: write`).
    func reoperated(_ step: WrittenStep, _ random: inout HuntDraws) -> WrittenStep? {
        guard case .fault(let kind, var keys) = step, let at = keys.firstIndex(where: { $0.key == "op" }) else { return nil }
        let others = generator.surface.storageOperations.filter { .string($0) != keys[at].value }
        guard !others.isEmpty else { return nil }
        keys[at].value = .string(random.pick(others))
        return .fault(kind, keys)
    }

    /// The step with one count of its trigger moved by one or two (at least 1, at most
    /// the key's ``countKeys`` bound): a fault that fires after more hits or fewer times,
    /// a cut at another write or sync. A repeating fault of the running app with no count
    /// gets one (`times: 1`, or `after: 1`).
    func recounted(_ step: WrittenStep, _ random: inout HuntDraws) -> WrittenStep? {
        let (keys, rebuild): ([HuntKey], ([HuntKey]) -> WrittenStep)
        var fewTimes = false
        switch step {
        case let .fault(kind, written):
            let type = FaultCatalog.kind(named: kind)
            guard type?.acceptsTrigger == true else { return nil }
            fewTimes = (type as? any HuntedFault.Type)?.firesAFewTimes ?? false
            (keys, rebuild) = (written, { .fault(kind, $0) })
        case let .powerLoss(mode, written) where !written.isEmpty:
            (keys, rebuild) = (written, { .powerLoss(mode, $0) })
        default:
            return nil
        }
        var changed = keys
        let counted = keys.indices.filter { Self.countKeys[keys[$0].key] != nil && keys[$0].value.number != nil }
        guard !counted.isEmpty else {
            guard !fewTimes, case .fault = step else { return nil }
            changed.append(HuntKey(random.chance(50) ? "times" : "after", .int(1)))
            return rebuild(changed)
        }
        let at = random.pick(counted)
        let old = keys[at].value.number ?? 1
        let bound = keys[at].key == "times" && fewTimes ? 3 : Self.countKeys[keys[at].key] ?? 3
        let choices = (1...max(bound, old)).filter { $0 != old && abs($0 - old) <= 2 }
        guard !choices.isEmpty else { return nil }
        changed[at].value = .int(random.pick(choices))
        return rebuild(changed)
    }
}

private extension ScenarioValue {
    /// The number of an `.int`, nil otherwise.
    var number: Int? {
        if case let .int(number) = self { return number }
        return nil
    }
}
