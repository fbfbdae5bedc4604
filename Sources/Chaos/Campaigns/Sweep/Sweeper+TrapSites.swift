import ChaosTarget

extension Sweeper {
    /// Names the sites of the traps a sweep shows. Trials run without symbolication
    /// (``Backtracer``): a trap of the standard library (an index out of range, a force
    /// unwrap) needs the backtrace, and the line a runtime message names is only a guess
    /// (a dependency's `assert` names the dependency's line, `SQLiteNIO/…:356`, where the
    /// backtrace names the app's). For each kind of trap not named by a backtrace (its
    /// signal and message) one trial runs again with it, and its site names them all;
    /// the first failure, the one printed as the minimal reproduction, always has its
    /// backtrace.
    func nameTrapSites(_ outcome: inout Outcome) {
        var named: [String: TrapRecord] = [:]
        for index in outcome.failedReports.indices {
            guard let trap = outcome.failedReports[index].trap else { continue }
            let first = index == 0
            let fromBacktrace = !TrapParser.frames(in: trap.backtrace ?? "").isEmpty
            guard !fromBacktrace || first else { continue }
            let kind = "\(trap.signal) \(trap.message ?? "")"
            if named[kind] == nil || first {
                let again = runTrial(outcome.failed[index]).report
                guard let againTrap = again.trap, againTrap.signal == trap.signal else { continue }
                named[kind] = againTrap
                // The minimal reproduction is shown whole: its run with the backtrace read.
                if first { outcome.failedReports[index] = again }
            }
            // The run with a backtrace decides, even that no frame is the app's.
            if let again = named[kind], !fromBacktrace {
                outcome.failedReports[index].trap?.site = again.site
                outcome.failedReports[index].trap?.backtrace = again.backtrace
            }
        }
        if let first = outcome.failedReports.first, outcome.firstFailure != nil {
            outcome.firstFailure?.report = first
        }
    }
}
