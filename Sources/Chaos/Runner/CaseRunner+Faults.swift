import Foundation
import ChaosTarget

/// Arming and clearing faults, each in its seam: files (damaged here, while the app is
/// down), the app's process (storage and point faults), the fault proxy, the clock, a
/// real full disk; and the power.
extension CaseRunner {
    func inject(_ step: FaultStep, id: String) throws(CaseEnd) -> StepResult {
        let subseed = SplitMix64.subseed(seed, id)
        let armed = faults.arm(step, id: id, seed: subseed)
        switch step.fault.base {
        case let fault as any FileFault:
            return try damage(fault, id: id, seed: subseed, ifAbsent: step.ifAbsent)
        case let fault as any StorageFault where fault.seam == .tmpfs:
            return try fillDisk(id: id)
        case let fault as any StorageFault where step.ifAbsent == .skip:
                        if let missing = faults.storage.missingOperations(fault, step: step) { throw .notApplicable(missing) }
            return try inject(armed, step: step)
        case let fault as any NetworkFault:
            guard let lab = fixtures.lab else { throw .harness("fault '\(step.fault.kind)' needs the network lab, which is not running") }
            do {
                try lab.arm(fault, id: id, trigger: step.trigger, seed: subseed)
            } catch {
                throw .harness("arming \(fault.label) in the fault proxy: \(error)")
            }
            return .ok("armed in the fault proxy: \(fault.label)" + (step.trigger.label.isEmpty ? "" : " (\(step.trigger.label))"))
        case let fault as any ClockFault:
            let done = try changeClock { try $0.apply(fault) }
            if app.isRunning { clockReached.insert(id) } else { clockWaiting.insert(id) }
            faults.update(id) { $0.fired = 1 }
            log.injections.append(InjectionRecord(kind: step.fault.kind, target: "clock", detail: done, atMs: clock.elapsedMs,
                                                  mechanism: InjectionRecord.Mechanism.libfaketime))
            return .ok(done)
        default:
            return try inject(armed, step: step)
        }
    }

    /// An in-process fault: armed in the running app now, and in every later launch.
    private func inject(_ armed: ArmedFault?, step: FaultStep) throws(CaseEnd) -> StepResult {
        guard let armed else { throw .harness("fault '\(step.fault.kind)' has no seam in this runner") }
        if app.isRunning, try ask(WorkerRequest(op: .arm, fault: armed)) == nil {
            return StepResult(.powerLost, "the power went out")
        }
        let seam = armed.fault.base is any StorageFault
            ? (faults.storage.seam(of: step) == .libc ? "the libc seam" : "the fault VFS") : "the fault point registry"
        return .ok("armed in \(seam): \(step.fault.label)" + (step.trigger.label.isEmpty ? "" : " (\(step.trigger.label))"))
    }

    /// A file fault: planned (seeded), then carried out on the file while the app is
    /// down; what it did to the database as SQLite reads it is measured around it.
    func damage(_ fault: any FileFault, id: String, seed: UInt64, ifAbsent: FaultStep.IfAbsent) throws(CaseEnd) -> StepResult {
        guard !app.isRunning else {
            throw .harness("\(id.replacingOccurrences(of: "-", with: " ")) '\(fault.label)' damages files while the app "
                + "is running: add a stop or kill step before it")
        }
        let url = try logicalFile(fault.file)
        guard FileManager.default.fileExists(atPath: url.path) || fault is ReplaceFileFault else {
            if ifAbsent == .skip { throw .notApplicable("the app keeps no \(url.lastPathComponent) at this point") }
            // A companion the app did not leave (its WAL was checkpointed away): nothing to damage.
            return noteDamage(fault, id: id, done: "left alone: \(url.lastPathComponent) does not exist",
                              effect: FileDamageEffect(hadEffect: false, summary: "no effect: \(url.lastPathComponent) does not exist"))
        }
        // A target that declares no SQLite keeps plain files: damage is measured in bytes.
        let plain = targetKeepsPlainFiles()
        var prepared: String?
        if fault.preparation == .checkpointWAL, !plain { prepared = FileDamage.checkpoint(url) }
        let store = plain ? nil : try databaseFile(of: fault.file)
        let effects = scratch.appendingPathComponent("effect-\(id)")
        defer { try? FileManager.default.removeItem(at: effects) }
        let before = store.map { FileDamageEffect.before(store: $0, scratch: effects) }
        let bytesBefore = store == nil ? FileDamageEffect.digest(of: url) : nil
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
        var rng = SplitMix64(seed: seed)
        let plan = fault.plan(fileSize: size, format: plain ? .plain : .sqlite, rng: &rng)
        do {
            // Paths in the report are relative to the app's data folder, so two runs compare.
            let done = try FileDamage.apply(plan, to: url).replacingOccurrences(of: hostDataDirectory.path + "/", with: "")
            if plan == .makeReadOnly {
                // No byte changes: whether it bites shows in what the app does to the file next.
                let untouched = FileStamp(url)
                deferredEffects[id] = { !untouched.writtenSince(FileStamp(url))
                    ? FileDamageEffect(hadEffect: true, summary: "\(url.lastPathComponent) stayed unwritten after it lost its write permission")
                    : FileDamageEffect(hadEffect: false, summary: "no effect: the app still wrote to \(url.lastPathComponent) "
                        + "(it runs as root, whom the permission bits do not stop, and does not check them itself)") }
            }
            let effect = store.flatMap { store in before.map { FileDamageEffect.after($0, store: store, scratch: effects) } }
                ?? FileDamageEffect.bytes(before: bytesBefore, url: url)
            return noteDamage(fault, id: id, done: (prepared.map { $0 + "; then " } ?? "") + done, effect: effect)
        } catch {
            throw .harness("\(id.replacingOccurrences(of: "-", with: " ")) '\(fault.label)': \(error)")
        }
    }

    /// Whether the target keeps its data without SQLite (it declares no copy of it):
    /// its files are plain, with no integrity check but its own snapshot.
    func targetKeepsPlainFiles() -> Bool {
        options.target.declaration.sqliteLibraries == 0
    }

    /// The store whose database a damage to `file` touches (the store itself, its WAL,
    /// journal or shared memory), or nil for another file of the app's.
    func databaseFile(of file: String) throws(CaseEnd) -> URL? {
        guard ["store", "wal", "shm", "journal"].contains(file) else { return nil }
        return try logicalFile("store")
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

    private func noteDamage(_ fault: any FileFault, id: String, done: String, effect: FileDamageEffect) -> StepResult {
        faults.update(id) { activity in
            activity.fired = 1
            activity.hadEffect = effect.hadEffect
            activity.effect = effect.summary
        }
        log.injections.append(InjectionRecord(kind: type(of: fault).kind, target: fault.file, detail: done,
                                              atMs: clock.elapsedMs, mechanism: InjectionRecord.Mechanism.fileDamage))
        return .ok(done + " — " + effect.summary)
    }

    /// `disk-full` for real: the tmpfs under the data folder filled with ballast.
    func fillDisk(id: String) throws(CaseEnd) -> StepResult {
        guard let tmpfs = fixtures.tmpfs else { throw .harness("disk-full with mechanism tmpfs, but no tmpfs is mounted") }
        do {
            let done = try tmpfs.fill()
            fixtures.diskFilled = true
            faults.update(id) { $0.fired = 1 }
            log.injections.append(InjectionRecord(kind: DiskFullFault.kind, target: "disk", detail: done,
                                                  atMs: clock.elapsedMs, mechanism: InjectionRecord.Mechanism.tmpfs))
            return .ok(done)
        } catch {
            throw .harness("filling the tmpfs: \(error)")
        }
    }

    func clear(_ scope: ClearScope) throws(CaseEnd) -> StepResult {
        var names: [String] = []
        for id in faults.clear(scope) {
            names.append(faults.kind(of: id) ?? id)
            if app.isRunning, try ask(WorkerRequest(op: .disarm, name: id)) == nil {
                return StepResult(.powerLost, "the power went out")
            }
        }
        let kind: String? = if case let .kind(kind) = scope { kind } else { nil }
        let family = kind.flatMap { FaultCatalog.kind(named: $0)?.family }
        if scope == .all || family == .network, let lab = fixtures.lab {
            do { names += try lab.clear(kind: kind) } catch { throw .harness("clearing \(scope.label) in the fault proxy: \(error)") }
        }
        if scope == .all || family == .clock, fixtures.clock != nil {
            names.append("\(kind ?? "the clock faults") (\(try changeClock { try $0.clear(kind: kind) }))")
        }
        if scope == .all || kind == DiskFullFault.kind, fixtures.diskFilled, let tmpfs = fixtures.tmpfs {
            _ = tmpfs.drain()
            fixtures.diskFilled = false
            names.append("the tmpfs ballast")
        }
        if scope == .all || scope == .powerLoss, try disarmPowerLoss() { names.append("the power loss") }
        if !names.isEmpty { log.startRecovery(at: clock.now, after: "the clear") }
        return .ok(names.isEmpty ? "nothing armed" : "disarmed " + names.joined(separator: ", "))
    }

    /// Rewrites the clock of the case's workers (libfaketime).
    func changeClock(_ change: (FaketimeClock) throws -> String) throws(CaseEnd) -> String {
        guard let seam = fixtures.clock else { throw .harness("clock faults need the libfaketime seam, which this case did not prepare") }
        do {
            return try change(seam)
        } catch {
            throw .harness("moving the app's clock: \(error)")
        }
    }

    /// What the proxy's faults did since the last step: the connections they picked
    /// and the connections they ended.
    func recordNetworkFirings() {
        for firing in fixtures.lab?.takeFirings() ?? [] {
            if let id = firing.faultID { faults.update(id) { $0.fired += 1 } }
            log.injections.append(InjectionRecord(kind: firing.kind, target: "proxy", detail: firing.detail,
                                                  atMs: clock.ms(at: firing.at), count: firing.connection,
                                                  mechanism: InjectionRecord.Mechanism.proxy))
        }
    }

    /// The path of one of the target's logical files, as the controller reaches it.
    /// `wal`, `shm` and `journal` are found beside `store` when the target does not
    /// name them. `asTheAppSeesIt`: the path inside the app's namespace, not the controller's view.
    func logicalFile(_ name: String, asTheAppSeesIt: Bool = false) throws(CaseEnd) -> URL {
        let files = options.target.declaration.files
        let companions = ["wal": "-wal", "shm": "-shm", "journal": "-journal"]
        guard let relative = files[name] ?? companions[name].flatMap({ suffix in files["store"].map { $0 + suffix } }) else {
            throw .harness("the target has no file named '\(name)'; it has: \(NameList.text(files.keys.sorted()))")
        }
        return (asTheAppSeesIt ? dataDirectory : hostDataDirectory).appendingPathComponent(relative)
    }
}
