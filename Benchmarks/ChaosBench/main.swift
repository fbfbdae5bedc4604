import Foundation

// chaos-bench: the figures of BENCHMARKS.md. `make bench` builds it in release mode.
// Every figure is a median with min and max over several runs; every comparison is a
// ratio measured in the same run, interleaved.
let rounds = Int(ProcessInfo.processInfo.environment["CHAOS_BENCH_ROUNDS"] ?? "") ?? 5
print("chaos-bench — \(ProcessInfo.processInfo.processorCount) cores, \(rounds) rounds, \(Date())")
print("")
let chaos = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("chaos").path
do {
    FaultPointBenchmark.run(rounds: rounds)
    print("")
    try VFSBenchmark.run(rounds: rounds)
    print("")
    try SweepBenchmark.run(rounds: 3, trials: 60)
    print("")
    try RecoveryBenchmark.run(chaos: chaos, sizes: [10_000, 100_000, 1_000_000], rounds: 3)
    print("")
    // The controller runs in this process (SuiteRunner, CaseRunner), so its peak is this
    // process's high-water mark; workers are children.
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) } ?? "?"
    line("Peak memory: controller (this process, VmHWM)", peak)
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    line("Peak memory: largest worker (ru_maxrss)", "\(usage.ru_maxrss / 1024) MiB (the 1,000,000-favourite case)")
} catch {
    FileHandle.standardError.write(Data("chaos-bench: \(error)\n".utf8))
    exit(2)
}
