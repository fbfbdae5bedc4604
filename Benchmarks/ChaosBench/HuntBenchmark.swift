import Chaos
import Foundation

/// `chaos hunt`, release build, through the library with the `chaos` built beside this
/// tool, at -j (cores): the hardened reference app, the legacy one (a trap in a third of
/// its schedules), and a hang-heavy app when one is at hand (the Orders example's fragile
/// variant on PostgreSQL: `CHAOS_EXAMPLE_PG_PORT` set and `chaos-example-orders` built
/// beside this tool). Each figure beside its goal (issue 33): schedules per second,
/// CPU-seconds per schedule (this process and every child it waited for), the time from
/// the first failure to its shrunk scenario, and the slowest shrink of one finding.
/// Findings go to a scratch folder that is removed.
enum HuntBenchmark {
    /// One app hunted: how, and the goals it is held to.
    struct Subject {
        var name: String
        var selection: TargetSelection
        var schedules: Int?
        var budget: Duration
        var goalPerSecond: Double
    }

    static func run(chaos: String, rounds: Int, schedules: Int) throws {
        var subjects = [
            Subject(name: "hardened", selection: try TargetSelection.builtIn(chaos: chaos, variant: "hardened"),
                    schedules: schedules, budget: .seconds(150), goalPerSecond: 30),
            Subject(name: "legacy", selection: try TargetSelection.builtIn(chaos: chaos, variant: "legacy"),
                    schedules: schedules, budget: .seconds(150), goalPerSecond: 15),
        ]
        let orders = URL(fileURLWithPath: chaos).deletingLastPathComponent().appendingPathComponent("chaos-example-orders").path
        if ProcessInfo.processInfo.environment["CHAOS_EXAMPLE_PG_PORT"] != nil, FileManager.default.isExecutableFile(atPath: orders) {
            // Its goal is a budget's: the hang found and shrunk within 3 minutes.
            subjects.append(Subject(name: "Orders fragile", selection: try TargetSelection.userTarget(at: orders, variant: "fragile"),
                                    schedules: nil, budget: .seconds(180), goalPerSecond: 5))
        } else {
            line("  Orders fragile (hang-heavy)", "not measured: set CHAOS_EXAMPLE_PG_PORT (and _USER) and build chaos-example-orders")
        }
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        for subject in subjects {
            try measure(subject, jobs: jobs, rounds: subject.schedules == nil ? 1 : rounds)
        }
    }

    #if DEBUG
    static let buildKind = "debug"
    #else
    static let buildKind = "release"
    #endif

    private static func measure(_ subject: Subject, jobs: Int, rounds: Int) throws {
        let options = RunOptions(target: subject.selection, seed: nil, keepScratch: false)
        let size = subject.schedules.map { "\($0) schedules" } ?? "budget \(Int(subject.budget.inSeconds)) s"
        print("Hunt, \(subject.name) (\(buildKind) build, seed 1, \(size), -j \(jobs), \(rounds) round\(rounds == 1 ? "" : "s"))")
        var perSecond: [Double] = [], cpu: [Double] = [], toShrunk: [Double] = [], slowestShrink: [Double] = [], slowestConfirm: [Double] = [], steps: [Double] = []
        var findings = 0
        var firstHang: (at: Double, steps: Double)?
        var hangAt: [Double] = [], hangSteps: [Double] = []
        for _ in 0..<rounds {
            firstHang = nil
            let found = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-bench-hunt-\(getpid())")
            defer { try? FileManager.default.removeItem(at: found) }
            var hunter = Hunter(options: options, seed: 1, foundDirectory: found, foundPath: found.path)
            if let schedules = subject.schedules { hunter.schedules = schedules }
            hunter.budget = subject.budget
            hunter.jobs = jobs
            var firstFailureToShrunk: Double?
            var firstSeen: ContinuousClock.Instant?
            let started = ContinuousClock.now
            let cpuBefore = CPUTime.now()
            let outcome = try hunter.run { progress in
                switch progress {
                case .shrinking: firstSeen = firstSeen ?? .now
                case let .found(finding):
                    if firstFailureToShrunk == nil, let firstSeen { firstFailureToShrunk = (ContinuousClock.now - firstSeen).inSeconds }
                    // The hang-heavy app's goal: its hang found and shrunk within the budget.
                    if finding.failure.hasPrefix("hang"), firstHang == nil {
                        firstHang = ((ContinuousClock.now - started).inSeconds, Double(finding.stepsAfter))
                    }
                default: break
                }
            }
            let seconds = Double(max(1, outcome.runMs)) / 1000
            perSecond.append(Double(outcome.schedules) / seconds)
            cpu.append((CPUTime.now() - cpuBefore) / Double(max(1, outcome.schedules + outcome.shrinkRuns)))
            if let firstFailureToShrunk { toShrunk.append(firstFailureToShrunk) }
            if let slowest = outcome.findings.map(\.shrinkMs).max() { slowestShrink.append(Double(slowest) / 1000) }
            if let slowest = outcome.findings.compactMap(\.confirmMs).max() { slowestConfirm.append(Double(slowest) / 1000) }
            if let longest = outcome.findings.map(\.stepsAfter).max() { steps.append(Double(longest)) }
            findings = outcome.findings.count
            if let firstHang { (hangAt, hangSteps) = (hangAt + [firstHang.at], hangSteps + [firstHang.steps]) }
        }
        let name = "hunt \(subject.name)"
        report("\(name): schedules per second, -j \(jobs)", "/s", perSecond, goal: subject.goalPerSecond, atLeast: true)
        report("\(name): CPU-seconds per schedule run", "s", cpu, digits: 3)
        report("\(name): first failure to its shrunk scenario", "s", toShrunk, goal: subject.schedules == nil ? nil : 5, atLeast: false)
        report("\(name): slowest shrink of one finding", "s", slowestShrink, goal: 30, atLeast: false)
        // A hang's file runs at the case's full timeout (20 s), as the issue asks, after its shrink.
        report("\(name): slowest run of a finding's file after its shrink", "s", slowestConfirm)
        report("\(name): steps of its longest finding", "steps", steps, digits: 0)
        if subject.schedules == nil {
            if hangAt.isEmpty { line("  its hang", "not found and shrunk within the budget (goal: found and shrunk to ≤ 5 steps in it)") }
            report("\(name): its hang found and shrunk, seconds into the hunt", "s", hangAt, goal: subject.budget.inSeconds, atLeast: false)
            report("\(name): steps of its hang's finding", "steps", hangSteps, goal: 5, atLeast: false, digits: 0)
        }
        line("  distinct failures found", "\(findings)")
    }

    /// Prints a figure beside its goal (met or not) and keeps it for bench.json.
    private static func report(_ name: String, _ unit: String, _ values: [Double], goal: Double? = nil, atLeast: Bool = true, digits: Int = 1) {
        guard !values.isEmpty else { return }
        let sample = Sample(values: values)
        var text = sample.formatted(unit, digits: digits)
        var goalText: String?
        if let goal {
            let bound = (atLeast ? "≥ " : "≤ ") + String(format: "%g", goal) + (unit.isEmpty ? "" : " \(unit)")
            let met = atLeast ? sample.median >= goal : sample.median <= goal
            text += " (goal \(bound): \(met ? "met" : "NOT met"))"
            goalText = bound
        }
        line("  " + name.split(separator: ":").dropFirst().joined(separator: ":").trimmingCharacters(in: .whitespaces), text)
        BenchFigures.record(name, unit: unit, sample, goal: goalText)
    }
}

/// CPU time of this process and of every child it has waited for, in seconds: a
/// hunt's controller and all its workers (fork servers included, once shut down).
enum CPUTime {
    static func now() -> Double {
        var own = rusage(), children = rusage()
        getrusage(RUSAGE_SELF.rawValue, &own)
        getrusage(RUSAGE_CHILDREN.rawValue, &children)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(own.ru_utime) + seconds(own.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime)
    }
}
