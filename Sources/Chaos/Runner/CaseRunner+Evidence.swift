import Foundation

/// The end of a case: the evidence the expectations judge.
extension CaseRunner {
    // MARK: - End of case

    var needsIntegrity: Bool {
        scenario.expectations.contains { $0.kind == .integrity }
    }

    func gatherFinalEvidence() {
        let kinds = scenario.expectations.map(\.kind)
        let needsApp = kinds.contains { expectation in
            switch expectation {
            case .surfaced, .state, .preserved: true
            default: false
            }
        }
        guard needsApp else { return }
        if evidence.recoveryMs == nil, let since = recoverySince {
            evidence.recoveryMissing = "no successful read after \(since.what)"
        }
        if worker == nil {
            // The app is judged as the user would find it: on a fresh launch.
            guard verificationLaunch() else { return }
        }
        if let reply = request(.probe, name: "surfaced"), case let .map(surfaced)? = reply.value {
            evidence.surfaced = surfaced
        }
        guard gatherLabEvidence() else { return }
        for case let .state(probe, _) in kinds where !probe.hasPrefix("remote.") {
            if let reply = request(.probe, name: probe), let value = reply.value { evidence.probes[probe] = value }
        }
        if kinds.contains(where: { if case .preserved = $0 { true } else { false } }) {
            // Kept means kept across a restart: what the app acknowledged from memory
            // alone does not count. Stop it gracefully and read its data on a new launch.
            if worker != nil {
                let (outcome, _) = stopWorker()
                guard outcome == "ok" else { return }
            }
            guard verificationLaunch() else { return }
            evidence.finalSnapshot = snapshot(purpose: "the final snapshot, after a restart")
        }
    }

    /// The `remote.*` probes, answered by the network lab, not the app: readable even
    /// after the app trapped (did the remote register the family before the crash?).
    /// False after a harness error (an unknown probe).
    @discardableResult
    func gatherLabEvidence() -> Bool {
        guard let lab else { return true }
        for case let .state(probe, _) in scenario.expectations.map(\.kind) where probe.hasPrefix("remote.") {
            guard let value = lab.probe(probe) else {
                harnessError = "unknown probe '\(probe)'; the network lab answers: \(NetworkLab.probes.joined(separator: ", "))"
                return false
            }
            evidence.probes[probe] = value
        }
        return true
    }

    /// A launch of the controller's own, to read evidence: it is not one of the
    /// scenario's, so the last launch's health and recovery time stay as they were, and
    /// no fault is armed in it: it shows what the faults left behind.
    func verificationLaunch() -> Bool {
        let saved = (evidence.health, evidence.recoveryMs, evidence.recoveryMissing, recoverySince)
        _ = launch(clean: true)
        (evidence.health, evidence.recoveryMs, evidence.recoveryMissing, recoverySince) = saved
        return worker != nil
    }

    func shutDownWorker() {
        guard worker != nil else { return }
        if stopped || interrupted {
            _ = worker?.kill()
            worker = nil
        } else {
            _ = stopWorker()
        }
    }

    func checkIntegrity() {
        guard var url = logicalFile("store") else { return }
        if tmpfs != nil {
            // SQLite resolves /proc/PID/root back to this namespace's "/": check a copy.
            let copy = scratch.appendingPathComponent("integrity", isDirectory: true)
            try? FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] {
                let source = URL(fileURLWithPath: url.path + suffix)
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                try? FileManager.default.copyItem(at: source, to: copy.appendingPathComponent(url.lastPathComponent + suffix))
            }
            url = copy.appendingPathComponent(url.lastPathComponent)
        }
        evidence.integrityChecked = true
        evidence.integrityProblem = IntegrityCheck.problems(at: url.path)
    }

    func expectationResults() -> [ExpectationResult] {
        scenario.checkedExpectations.map { ExpectationEvaluator.evaluate($0.kind, evidence: evidence) } + stepFailures
    }

    func fail(step index: Int, label: String, outcome: String, detail: String) {
        steps.append(StepRecord(index: index + 1, label: label, startMs: ms(clock.now - start), durationMs: 0,
                                outcome: outcome, detail: detail))
    }
}
