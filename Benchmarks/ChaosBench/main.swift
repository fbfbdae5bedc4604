import Foundation

// chaos-bench: the figures of BENCHMARKS.md. `make bench` builds it in release mode,
// with `chaos` beside it and `chaos-bench-points` in two builds (trait on and off).
// Every figure is a median with min and max over several runs; every comparison is a
// ratio measured in the same run, interleaved.
//
//     chaos-bench [PATH-TO-chaos-bench-points-BUILT-WITHOUT-THE-TRAIT]
//     chaos-bench --vfs-workload INDEX VFS     (internal: one workload, for callgrind)
//     chaos-bench --libc-loop MODE FOLDER N    (internal: one libc seam configuration)
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--libc-loop", let count = Int(CommandLine.arguments[4]) {
    do {
        print(String(format: "%.3f", try LibcSeamBenchmark.loop(mode: CommandLine.arguments[2], folder: CommandLine.arguments[3], iterations: count)))
    } catch {
        FileHandle.standardError.write(Data("chaos-bench: \(error)\n".utf8))
        exit(2)
    }
    exit(0)
}
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--vfs-workload", let index = Int(CommandLine.arguments[2]) {
    // The child side of an instruction count (InstructionCount).
    do { try VFSBenchmark.runOne(index: index, vfs: CommandLine.arguments[3]) } catch {
        FileHandle.standardError.write(Data("chaos-bench: \(error)\n".utf8))
        exit(2)
    }
    exit(0)
}
let rounds = Int(ProcessInfo.processInfo.environment["CHAOS_BENCH_ROUNDS"] ?? "") ?? 5
let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let chaos = here.appendingPathComponent("chaos").path
let pointsEnabled = here.appendingPathComponent("chaos-bench-points").path
let pointsCompiledOut = CommandLine.arguments.dropFirst().first ?? ".build-bench-notraits/release/chaos-bench-points"

print("chaos-bench — \(ProcessInfo.processInfo.activeProcessorCount) cores, \(rounds) rounds, \(Date())")
print("")
guard FileManager.default.isExecutableFile(atPath: chaos) else {
    FileHandle.standardError.write(Data("chaos-bench: \(chaos) is missing: build the chaos product beside this tool (make bench)\n".utf8))
    exit(2)
}
// CHAOS_BENCH_ONLY=vfs,sweeps runs some sections: points, vfs, libc, worker, sweeps, catalog (every
// sweep of the catalog, the slowest), hunt, defects (the planted defects: check, random and
// guided hunts), recovery
// (the catalog, recovery against size and damage, and peak memory), launch (healthy,
// hardened against legacy). Every figure also goes to reports/bench.json.
let only = Set((ProcessInfo.processInfo.environment["CHAOS_BENCH_ONLY"] ?? "").split(separator: ",").map(String.init))
func wanted(_ section: String) -> Bool { only.isEmpty || only.contains(section) }
do {
    if wanted("points") {
        FaultPointBenchmark.run(rounds: rounds, enabled: pointsEnabled, compiledOut: pointsCompiledOut)
        print("")
    }
    if wanted("vfs") {
        try VFSBenchmark.run(rounds: max(rounds, 9))  // the noisiest figure: more rounds
        print("")
    }
    if wanted("libc") {
        try LibcSeamBenchmark.run(rounds: max(rounds, 7))
        print("")
    }
    if wanted("worker") {
        try WorkerBenchmark.run(chaos: chaos, rounds: 9)
        print("")
    }
    if wanted("sweeps") {
        try SweepBenchmark.run(chaos: chaos, rounds: 3, trials: 60)
        print("")
    }
    if wanted("catalog") {
        try SweepBenchmark.catalog(chaos: chaos, limit: 60)
        print("")
    }
    if wanted("hunt") {
        try HuntBenchmark.run(chaos: chaos, rounds: min(3, rounds), schedules: 120)
        print("")
    }
    if wanted("defects") {
        try DefectsBenchmark.run(chaos: chaos)
        print("")
    }
    if wanted("launch") {
        try LaunchBenchmark.run(chaos: chaos, sizes: [1_000, 100_000, 1_000_000])
        print("")
    }
    if wanted("recovery") {
        // CHAOS_BENCH_SIZES=1000000 measures one size (the 5 s goal's) for a quick look.
        let sizes = (ProcessInfo.processInfo.environment["CHAOS_BENCH_SIZES"] ?? "").split(separator: ",").compactMap { Int($0) }
        try RecoveryBenchmark.run(chaos: chaos, sizes: sizes.isEmpty ? [10_000, 100_000, 1_000_000] : sizes, rounds: min(3, rounds))
        print("")
        // The controller runs in this process (SuiteRunner, CaseRunner), so its peak is
        // this process's high-water mark; workers are children.
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) } ?? "?"
        line("Peak memory: controller (this process, VmHWM)", peak)
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        line("Peak memory: largest worker (ru_maxrss)", "\(usage.ru_maxrss / 1024) MiB (the 1,000,000-favourite case)")
    }
    BenchFigures.write(sections: ["points", "vfs", "libc", "worker", "sweeps", "hunt", "defects", "launch", "recovery"].filter(wanted))
} catch {
    FileHandle.standardError.write(Data("chaos-bench: \(error)\n".utf8))
    exit(2)
}
