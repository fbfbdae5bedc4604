import ChaosTarget

extension HuntMutator {
    /// Where the app stands after some steps: running or closed, a cut at a later moment
    /// waiting in this run, how many launches came.
    struct Lifecycle {
        var running = false
        /// A cut armed for a later write or sync waits in this run: only a stop calls it off
        /// (a kill, a cut now or a launch before it came is a scenario's mistake the runner
        /// refuses: ``PowerSeam/cutNeverCame``).
        var cutWaits = false
        var launches = 0

        init() {}

        init(_ steps: ArraySlice<WrittenStep>) {
            for step in steps { note(step) }
        }

        mutating func note(_ step: WrittenStep) {
            switch step {
            case .launch:
                (running, cutWaits) = (true, false)
                launches += 1
            case .stop, .kill:
                (running, cutWaits) = (false, false)
            case let .powerLoss(_, moment):
                if moment.isEmpty { (running, cutWaits) = (false, false) } else if running { cutWaits = true }
            default:
                break
            }
        }
    }
}

extension HuntMutator {
    /// Steps mended into runs the generator could have written, each change the least
    /// that makes the scenario format and the runner take them: a launch before a step
    /// that needs the app running (an action, a clear, a cut at a later moment); a stop
    /// before a launch while the app runs, and before damage to its files (done while it
    /// is closed); an end with nothing running to end dropped; a kill or a cut now while
    /// a cut waits for its moment made a stop, which calls it off, as the generator does;
    /// a run left open ended by a stop.
    static func repaired(_ steps: [WrittenStep]) -> [WrittenStep] {
        var mended: [WrittenStep] = []
        var life = Lifecycle()
        func add(_ step: WrittenStep) {
            mended.append(step)
            life.note(step)
        }
        for step in steps {
            switch step {
            case .launch:
                if life.running { add(.stop) }
            case .stop, .kill, .powerLoss(_, []):
                guard life.running else { continue }
                if life.cutWaits {
                    add(.stop)
                    continue
                }
            case let .fault(kind, _) where damagesFiles(kind):
                if life.running { add(.stop) }
            case .action, .clear, .powerLoss:
                if !life.running { add(.launch) }
            default:
                break
            }
            add(step)
        }
        if life.running { add(.stop) }
        return mended
    }

    /// Whether a fault kind damages the app's files, which is done while the app is closed.
    static func damagesFiles(_ kind: String) -> Bool {
        FaultCatalog.kind(named: kind) is any FileFault.Type
    }
}
