import ChaosTarget
import Foundation

/// The app's files, damaged by the controller while the app is down, as a user's files
/// are between two launches. A file fault plans its damage (seeded, from the file's size
/// and kind); ``FileDamage`` carries the plan out; what it did to the database as SQLite
/// reads it (or to a plain file's bytes) is measured around it.
final class FileSeam: FaultSeam {
    /// `setpriv`, when workers must honour permission bits though the controller runs as
    /// root (a fault that makes a file read-only): root's DAC override is dropped.
    private var setpriv: String?
    /// Effects known only at the end of the case (a read-only file: did the app still
    /// write it?).
    private var deferred: [String: () -> FaultEffect] = [:]
    /// A read-only fault is measured by what the app attempts after it: the libc seam
    /// watches the data folder from each launch, and its counts come back in the replies.
    private var watching = false
    private var attempts = AttemptTally()
    /// The list of read-only paths workers read at their start (``ReadOnlyPaths``).
    private var readOnlyList: URL?
    /// Files taken away until cleared (`file-unavailable`), by fault id.
    var takenAway: [String: TakenAway] = [:]

    func carries(_ fault: AnyFault) -> Bool {
        fault.base is any FileFault
    }

    func setUp(for scenario: Scenario, steps: [FaultStep], in setting: SeamSetting) throws(SeamUnavailable) {
        let needsBits = steps.contains { (type(of: $0.fault.base) as? any FileFault.Type)?.needsPermissionBits == true }
        watching = needsBits
        if needsBits { readOnlyList = setting.scratch.appendingPathComponent("read-only.list") }
        guard needsBits, getuid() == 0 else { return }
        setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func wrap(_ command: WorkerCommand) -> WorkerCommand {
        var command = command
        if watching { command.perLaunch.environment[LibcSeam.watchVariable] = "1" }
        if let readOnlyList { command.perLaunch.environment[ReadOnlyPaths.listVariable] = readOnlyList.path }
        guard let setpriv else { return command }
        var inside = command
        inside.arguments = ["--bounding-set=-dac_override,-dac_read_search", "--", command.executable] + command.arguments
        inside.executable = setpriv
        return inside
    }

    func inject(_ step: FaultStep, id: String, seed: UInt64, in context: SeamContext) throws(CaseEnd) -> StepResult {
        guard let fault = step.fault.base as? any FileFault else { throw .harness("'\(step.fault.kind)' is not a file fault") }
        let name = id.replacingOccurrences(of: "-", with: " ")
        guard !context.app.isRunning || type(of: fault).actsWhileRunning else {
            throw .harness("\(name) '\(fault.label)' damages files while the app is running: add a stop or kill step before it")
        }
        let url = try context.files.logicalFile(fault.file, asTheAppSeesIt: false)
        guard FileManager.default.fileExists(atPath: url.path) || !type(of: fault).needsTheFile else {
            if step.ifAbsent == .skip { throw .notApplicable("the app keeps no \(url.lastPathComponent) at this point") }
            // A companion the app did not leave (its WAL was checkpointed away): nothing to damage.
            return note(fault, id: id, done: "left alone: \(url.lastPathComponent) does not exist",
                        effect: FaultEffect(hadEffect: false, summary: "no effect: \(url.lastPathComponent) does not exist"), in: context)
        }
        var probe = SplitMix64(seed: seed)
        if fault.plan(fileSize: 0, rng: &probe) == .setAside { return try takeAway(url, fault: fault, id: id, in: context) }
        if FolderDamage.isFolder(url) {
            do {
                if let outcome = try FolderDamage.apply(fault, to: url, seed: seed) {
                    let done = outcome.done.replacingOccurrences(of: context.files.hostDataDirectory.path + "/", with: "")
                    return note(fault, id: id, done: done, effect: outcome.effect, in: context)
                }
            } catch let end as CaseEnd {
                throw end
            } catch {
                throw .harness("\(name) '\(fault.label)': \(error)")
            }
        }
        // A target that declares no SQLite keeps plain files: damage is measured in bytes.
        let plain = context.declaration.sqliteLibraries == 0
        var prepared: String?
        if fault.preparation == .checkpointWAL, !plain { prepared = FileDamage.checkpoint(url) }
        let store = plain || !["store", "wal", "shm", "journal"].contains(fault.file) ? nil : try context.files.logicalFile("store", asTheAppSeesIt: false)
        let effects = context.files.scratch.appendingPathComponent("effect-\(id)")
        defer { try? FileManager.default.removeItem(at: effects) }
        let before = store.map { FileDamageEffect.before(store: $0, scratch: effects) }
        let bytesBefore = store == nil ? FileDamageEffect.digest(of: url) : nil
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
        var rng = SplitMix64(seed: seed)
        let plan = fault.plan(fileSize: size, format: plain ? .plain : .sqlite, rng: &rng)
        do {
            // Paths in the report are relative to the app's data folder, so two runs compare.
            let done = try FileDamage.apply(plan, to: url).replacingOccurrences(of: context.files.hostDataDirectory.path + "/", with: "")
            var measured = store.flatMap { store in before.map { FileDamageEffect.after($0, store: store, scratch: effects) } }
                ?? FileDamageEffect.bytes(before: bytesBefore, url: url)
            if plan == .makeReadOnly {
                // No byte changes: its effect is what the app meets when it next writes.
                attempts.startCounting()
                refuseChanges(to: url, under: context.files.hostDataDirectory)
                deferred[id] = measureReadOnly(url)
                measured = FileDamageEffect(hadEffect: true, summary: "\(url.lastPathComponent) lost its write permission; "
                    + "what the app meets shows when it next writes")
            }
            return note(fault, id: id, done: (prepared.map { $0 + "; then " } ?? "") + done,
                        effect: FaultEffect(hadEffect: measured.hadEffect, summary: measured.summary), in: context)
        } catch {
            throw .harness("\(name) '\(fault.label)': \(error)")
        }
    }

    /// Files are damaged once and stay so; a file taken away (`file-unavailable`) comes
    /// back as it was.
    func clear(_ scope: ClearScope, in context: SeamContext) throws(CaseEnd) -> [String] {
        var names: [String] = []
        for (id, away) in takenAway.sorted(by: { $0.key < $1.key }) where context.ledger.scope(scope, covers: id) {
            try bringBack(away, id: id, in: context)
            takenAway[id] = nil
            names.append("\(FileUnavailableFault.kind) \(away.label)")
        }
        return names
    }

    /// Measured when it was applied, or (a file made read-only, where no byte changes) by
    /// what the app did to the file afterwards.
    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect {
        if let measure = deferred[activity.id] { return measure() }
        return FaultEffect(hadEffect: activity.hadEffect ?? false, summary: activity.effect ?? "not measured")
    }

    /// From the next launch on, the libc seam refuses every change to `url` as a read-only
    /// file system does (EROFS): a rename or link onto it too, which its bits do not stop.
    private func refuseChanges(to url: URL, under data: URL) {
        guard let readOnlyList else { return }
        let relative = url.standardizedFileURL.path.replacingOccurrences(of: data.standardizedFileURL.path + "/", with: "")
        let listed = ((try? String(contentsOf: readOnlyList, encoding: .utf8)) ?? "") + relative + "\n"
        try? Data(listed.utf8).write(to: readOnlyList, options: .atomic)
    }

    /// What the app's process told: the libc seam's counts, in the runs after a read-only fault.
    func heard(_ news: AppNews, atMs: Int, ledger: FaultLedger) -> [InjectionRecord] {
        switch news {
        case .ready: attempts.newRun()
        case let .reply(reply): if let reach = reply.status.reach { attempts.heard(reach) }
        case .event, .exited: break
        }
        return []
    }

    /// A read-only file bites when the app meets it: what the seam saw refused (an open
    /// for writing, a rename, a link, a delete failed with EACCES, EPERM or EROFS). Nothing
    /// attempted is no effect, said so — never "refused" for a file nobody tried to write;
    /// written all the same is no effect either.
    private func measureReadOnly(_ url: URL) -> () -> FaultEffect {
        let untouched = FileStamp(url)
        let name = url.lastPathComponent
        return { [unowned self] in
            let seen = attempts.total
            if seen.refused > 0 {
                let calls = seen.refusedByOperation.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                return FaultEffect(hadEffect: true, summary: "the app was refused \(seen.refused) call\(seen.refused == 1 ? "" : "s") "
                    + "under its data folder after \(name) lost its write permission (\(calls): EACCES, EPERM or EROFS)")
            }
            if untouched.writtenSince(FileStamp(url)) {
                return FaultEffect(hadEffect: false, summary: "no effect: the app still wrote to \(name) "
                    + "(it runs as root, whom the permission bits do not stop, and does not check them itself)")
            }
            if seen.counted, seen.changes == 0 {
                return FaultEffect(hadEffect: false, summary: "no effect: nothing tried to write under the data folder after "
                    + "\(name) lost its write permission")
            }
            if seen.counted {
                return FaultEffect(hadEffect: false, summary: "no effect: the app wrote under its data folder and was refused "
                    + "nothing: it never wrote \(name)")
            }
            return FaultEffect(hadEffect: true, summary: "\(name) stayed unwritten after it lost its write permission "
                + "(the libc seam was not in the app's process to say what the app attempted)")
        }
    }

    func note(_ fault: any FileFault, id: String, done: String, effect: FaultEffect, in context: SeamContext) -> StepResult {
        if effect.hadEffect { mark(fault, id: id, in: context) }
        context.ledger.update(id) { activity in
            activity.fired = 1
            activity.hadEffect = effect.hadEffect
            activity.effect = effect.summary
        }
        context.record(InjectionRecord(kind: type(of: fault).kind, target: fault.file, detail: done,
                                       atMs: context.clock.elapsedMs, mechanism: InjectionRecord.Mechanism.fileDamage))
        return .ok(done + " — " + effect.summary)
    }

    /// What the damage left, for the oracles of what the user was promised
    /// (``FileDamageMark``): the damaged file's bytes, and whether another declared file
    /// (not the store's journal or shared memory, nor one damaged before) held data.
    private func mark(_ fault: any FileFault, id: String, in context: SeamContext) {
        guard let url = try? context.files.logicalFile(fault.file, asTheAppSeesIt: false) else { return }
        let damagedBefore = Set(context.log.evidence.damages.map(\.file))
        let others = context.declaration.files.keys.filter { ![fault.file, "wal", "shm", "journal"].contains($0) && !damagedBefore.contains($0) }
        let goodCopy = others.contains { name in
            (try? context.files.logicalFile(name, asTheAppSeesIt: false)).map(FileChunks.holdsData) ?? false
        }
        let step = context.ledger.activities.last { $0.id == id }?.step ?? 0
        // SQLite's own journal and shared memory are not the app's to set aside: SQLite
        // itself drops a WAL whose frames do not check out.
        let companion = ["wal", "shm", "journal"].contains(fault.file)
        // A file made read-only holds the user's data intact: an app that reads it into a
        // new store and lets the old one go has destroyed nothing.
        let intact = !type(of: fault).losesWhatTheFileHeld
        let chunks = companion || intact || FolderDamage.isFolder(url) ? [] : FileChunks.digests(of: url)
        var mark = FileDamageMark(file: fault.file, step: step, kind: type(of: fault).kind, chunks: chunks,
                                  goodCopy: goodCopy, permanent: !type(of: fault).losesWhatTheFileHeld)
        if !chunks.isEmpty {
            mark.identity = FileChunks.identity(of: url)
            let path = url.standardizedFileURL.path
            mark.ownPaths = Set(["", "-wal", "-shm", "-journal"].map { path + $0 })
        }
        context.log.evidence.damages.append(mark)
    }

    /// A file's identity, size and modification time: whether anything wrote to it since.
    struct FileStamp: Equatable {
        var inode: UInt64?
        var size: Int?
        var modified: Date?

        init(_ url: URL) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            inode = (attributes?[.systemFileNumber] as? NSNumber)?.uint64Value
            size = (attributes?[.size] as? NSNumber)?.intValue
            modified = attributes?[.modificationDate] as? Date
        }

        /// The same file (not one moved away and replaced), with other contents.
        func writtenSince(_ now: FileStamp) -> Bool {
            inode != nil && now.inode == inode && (now.size != size || now.modified != modified)
        }
    }
}
