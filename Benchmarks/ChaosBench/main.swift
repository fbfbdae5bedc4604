import Foundation

// chaos-bench: the figures of BENCHMARKS.md. `make bench` builds it in release mode.
// Every figure is a median with min and max over several runs; every comparison is a
// ratio measured in the same run, interleaved.
let rounds = Int(ProcessInfo.processInfo.environment["CHAOS_BENCH_ROUNDS"] ?? "") ?? 5
print("chaos-bench — \(ProcessInfo.processInfo.processorCount) cores, \(rounds) rounds, \(Date())")
print("")
do {
    try VFSBenchmark.run(rounds: rounds)
    print("")
    try SweepBenchmark.run(rounds: 3, trials: 60)
} catch {
    FileHandle.standardError.write(Data("chaos-bench: \(error)\n".utf8))
    exit(2)
}
