import Foundation

/// Injecting and clearing faults: files, fault points, storage, clock, network.
extension CaseRunner {
    // MARK: - Faults

    func inject(_ step: FaultStep, index: Int) -> (String, String?) {
        let subseed = SplitMix64.subseed(seed, "step-\(index)")
        switch step.fault.base {
        case let fault as any FileFault:
            guard worker == nil else {
                harnessError = "step \(index) '\(step.fault.label)' damages files while the app is running: "
                    + "add a stop or kill step before it"
                stopped = true
                return ("error", harnessError)
            }
            guard let url = logicalFile(fault.file) else { return ("error", harnessError) }
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
            var rng = SplitMix64(seed: subseed)
            let plan = fault.plan(fileSize: size, rng: &rng)
            do {
                // Paths in the report are relative to the app's data folder, so two runs compare.
                let done = try FileDamage.apply(plan, to: url)
                    .replacingOccurrences(of: hostDataDirectory.path + "/", with: "")
                injections.append(InjectionRecord(kind: step.fault.kind, target: fault.file, detail: done,
                                                  atMs: ms(clock.now - start), mechanism: "file-damage"))
                return ("ok", done)
            } catch {
                harnessError = "step \(index) '\(step.fault.label)': \(error)"
                stopped = true
                return ("error", harnessError)
            }
        case let fault as DiskFullFault where fault.mechanism == .tmpfs:
            guard let tmpfs else {
                harnessError = "disk-full with mechanism tmpfs, but no tmpfs is mounted"
                stopped = true
                return ("error", harnessError)
            }
            do {
                let done = try tmpfs.fill()
                tmpfsFilled = true
                injections.append(InjectionRecord(kind: step.fault.kind, target: "disk", detail: done,
                                                  atMs: ms(clock.now - start), mechanism: "tmpfs"))
                return ("ok", done)
            } catch {
                harnessError = "step \(index) '\(step.fault.label)': \(error)"
                stopped = true
                return ("error", harnessError)
            }
        case _ where step.fault.family == .storage:
            guard let rule = StorageFaultRule(fault: step.fault, trigger: step.trigger, seed: subseed) else {
                harnessError = "fault '\(step.fault.kind)' has no storage rule"
                stopped = true
                return ("error", harnessError)
            }
            activeStorage.append((step.fault.kind, rule))
            if worker != nil, request(.armStorage, storage: rule) == nil { return ("error", harnessError ?? evidence.abnormalEnd) }
            return ("ok", "armed in the VFS: \(step.fault.label)")
        case let fault as ThrowFault:
            let arming = PointArming(point: fault.point, effect: .fail, message: fault.message,
                                     trigger: step.trigger, seed: subseed)
            activeArmings.append((step.fault.kind, arming))
            if worker != nil, request(.arm, arming: arming) == nil { return ("error", harnessError ?? evidence.abnormalEnd) }
            return ("ok", "armed \(fault.point)")
        case let fault as ResetContextFault:
            let arming = PointArming(point: fault.point, effect: .targetEffect, targetEffect: ResetContextFault.effect,
                                     trigger: step.trigger, seed: subseed)
            activeArmings.append((step.fault.kind, arming))
            if worker != nil, request(.arm, arming: arming) == nil { return ("error", harnessError ?? evidence.abnormalEnd) }
            return ("ok", "armed \(fault.point)")
        case let fault as any NetworkFault:
            return armNetwork(fault, trigger: step.trigger, seed: subseed)
        case let fault as any ClockFault:
            return changeClock(step.fault.kind) { try $0.apply(fault) }
        default:
            harnessError = "fault '\(step.fault.kind)' is not supported by this runner yet"
            stopped = true
            return ("error", harnessError)
        }
    }

    func clear(_ kind: String?) -> (String, String?) {
        let cleared = activeArmings.filter { kind == nil || $0.kind == kind }
        activeArmings.removeAll { kind == nil || $0.kind == kind }
        let clearedStorage = activeStorage.filter { kind == nil || $0.kind == kind }
        activeStorage.removeAll { kind == nil || $0.kind == kind }
        if worker != nil {
            for (_, arming) in cleared where request(.disarm, name: arming.point) == nil {
                return ("error", harnessError ?? evidence.abnormalEnd)
            }
            for storageKind in Set(clearedStorage.map(\.kind)) where request(.disarmStorage, name: storageKind) == nil {
                return ("error", harnessError ?? evidence.abnormalEnd)
            }
        }
        var names = cleared.map(\.arming.point) + clearedStorage.map(\.kind)
        if let lab, kind == nil || FaultCatalog.kind(named: kind ?? "")?.family == .network {
            do {
                names += try lab.clear(kind: kind)
            } catch {
                harnessError = "clearing \(kind ?? "all") in the fault proxy: \(error)"
                stopped = true
                return ("error", harnessError)
            }
        }
        if faketime != nil, kind == nil || FaultCatalog.kind(named: kind ?? "")?.family == .clock {
            guard case let ("ok", done?) = changeClock(nil, { try $0.clear(kind: kind) }) else { return ("error", harnessError) }
            names.append("\(kind ?? "the clock faults") (\(done))")
        }
        if tmpfsFilled, kind == nil || kind == DiskFullFault.kind, let tmpfs {
            _ = tmpfs.drain()
            tmpfsFilled = false
            names.append("the tmpfs ballast")
        }
        if !names.isEmpty {
            recoverySince = (clock.now, "the clear")
            evidence.recoveryMs = nil
        }
        return ("ok", names.isEmpty ? "nothing armed" : "disarmed " + names.joined(separator: ", "))
    }

    // MARK: Clock — libfaketime.

    /// Rewrites the clock of the case's workers; `kind` records it as an injection
    /// (a `clear` passes nil).
    func changeClock(_ kind: String?, _ change: (FaketimeClock) throws -> String) -> (String, String?) {
        guard let faketime else {
            harnessError = "clock faults need the libfaketime seam, which this case did not prepare"
            stopped = true
            return ("error", harnessError)
        }
        do {
            let done = try change(faketime)
            if let kind {
                injections.append(InjectionRecord(kind: kind, target: "clock", detail: done, atMs: ms(clock.now - start),
                                                  mechanism: InjectionRecord.Mechanism.libfaketime))
            }
            return ("ok", done)
        } catch {
            harnessError = "moving the app's clock: \(error)"
            stopped = true
            return ("error", harnessError)
        }
    }

    // MARK: Network lab — arming and evidence.

    func armNetwork(_ fault: any NetworkFault, trigger: Trigger, seed: UInt64) -> (String, String?) {
        guard let lab else {
            harnessError = "fault '\(type(of: fault).kind)' needs the network lab, which is not running"
            stopped = true
            return ("error", harnessError)
        }
        do {
            try lab.arm(fault, trigger: trigger, seed: seed)
        } catch {
            harnessError = "arming \(fault.label) in the fault proxy: \(error)"
            stopped = true
            return ("error", harnessError)
        }
        return ("ok", "armed in the fault proxy: \(fault.label)" + (trigger.label.isEmpty ? "" : " (\(trigger.label))"))
    }

    /// What the proxy's faults did since the last step: the connections they picked
    /// and the connections they ended.
    func recordNetworkFirings() {
        for firing in lab?.takeFirings() ?? [] {
            injections.append(InjectionRecord(kind: firing.kind, target: "proxy", detail: firing.detail,
                                              atMs: ms(max(firing.at, start) - start), count: firing.connection,
                                              mechanism: InjectionRecord.Mechanism.proxy))
        }
    }

    func recordStorageFirings(_ firings: [StorageFiring]?) {
        for firing in firings ?? [] {
            if workerLaunches == 1, options.sweepTrial?.storageRule?.kind.rawValue == firing.kind { sweepFired = true }
            injections.append(InjectionRecord(
                kind: firing.kind, target: firing.file,
                detail: "\(firing.operation) of \(URL(fileURLWithPath: firing.path).lastPathComponent) → result code \(firing.resultCode)",
                atMs: ms(clock.now - start), count: firing.count, mechanism: "vfs"))
        }
    }

    func recordFirings(_ firings: [PointFiring]?) {
        for firing in firings ?? [] {
            let kind = activeArmings.first { $0.arming.point == firing.point || firing.point.hasPrefix($0.arming.point.dropLast()) }?.kind ?? "throw"
            injections.append(InjectionRecord(kind: kind, target: firing.point, detail: "\(firing.action) at hit \(firing.hit)",
                                              atMs: ms(clock.now - start), count: firing.hit, mechanism: "fault-point"))
        }
    }

    func logicalFile(_ name: String) -> URL? {
        if files == nil { files = describeTarget() }
        guard let relative = files?[name] else {
            let known = (files ?? [:]).keys.sorted().joined(separator: ", ")
            harnessError = harnessError ?? "the target has no file named '\(name)'; it has: \(known)"
            stopped = true
            return nil
        }
        return hostDataDirectory.appendingPathComponent(relative)
    }

    /// Starts a worker only to read its ready line (its logical files), then stops it.
    func describeTarget() -> [String: String]? {
        let stderrFile = scratch.appendingPathComponent("describe.stderr")
        let context = TargetContext(dataDirectory: scratch.appendingPathComponent("describe"), variant: options.variant,
                                    options: targetOptions, seed: seed)
        guard case let .ready(session)? = try? WorkerSession.start(command: workerCommand, context: context,
                                                                   stderrFile: stderrFile, deadline: deadline) else { return nil }
        faketime?.workerStarted(pid: session.process.pid)
        _ = session.kill()
        return session.ready.files
    }
}
