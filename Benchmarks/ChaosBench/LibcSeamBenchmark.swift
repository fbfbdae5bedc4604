import CLibcSeamAPI
import Chaos
import ChaosTarget
import Foundation

/// What the libc seam costs a call: 4 KiB `pwrite`s to one file, in a child process per
/// configuration, interleaved over rounds — without a preload, with the seam preloaded
/// (no scope; a fault armed for another folder; the file's own folder watched, a hook
/// asked for each call), and with libfiu's POSIX preload (the peer: every libc call a
/// fault point) disarmed and with a point enabled elsewhere.
///
/// The file is on tmpfs (`/dev/shm` when there is one): a disk's latency would hide a
/// wrapper's cost.
enum LibcSeamBenchmark {
    static let iterations = 200_000

    struct Configuration {
        var name: String
        var mode: String
        var preload: [String]
        var environment: [String: String] = [:]
    }

    static func run(rounds: Int) throws {
        guard case let .success(seam) = PreloadLibrary.libcSeam.path() else {
            line("libc seam", "skipped — the seam could not be built (no C compiler?)")
            return
        }
        let fiu = ["/usr/lib/fiu/fiu_run_preload.so", "/usr/lib/fiu/fiu_posix_preload.so"]
        let hasFiu = fiu.allSatisfy { FileManager.default.fileExists(atPath: $0) }
        var configurations = [
            Configuration(name: "no preload", mode: "plain", preload: []),
            Configuration(name: "seam loaded, no scope", mode: "plain", preload: [seam]),
            Configuration(name: "seam, a fault armed on another folder", mode: "elsewhere", preload: [seam]),
            Configuration(name: "seam, this file's folder watched (hook asked)", mode: "watched", preload: [seam]),
        ]
        if hasFiu {
            configurations += [
                Configuration(name: "libfiu posix preload, disarmed", mode: "plain", preload: fiu),
                Configuration(name: "libfiu posix preload, a point enabled elsewhere", mode: "plain", preload: fiu,
                              environment: ["FIU_ENABLE": "enable name=posix/io/dir/opendir"]),
            ]
        }
        let root = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let folder = root.appendingPathComponent("chaos-bench-libc-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        print("libc seam: ns per 4 KiB pwrite on tmpfs (\(iterations) calls a round, \(rounds) interleaved rounds, a process each)")
        var samples = Array(repeating: [Double](), count: configurations.count)
        for round in 0..<rounds {
            let order = round % 2 == 0 ? Array(configurations.indices) : configurations.indices.reversed()
            for index in order {
                guard let value = measure(configurations[index], folder: folder) else {
                    throw ChaosError.io("the libc loop failed for '\(configurations[index].name)'")
                }
                samples[index].append(value)
            }
        }
        let plain = Sample(values: samples[0])
        for (index, configuration) in configurations.enumerated() {
            let sample = Sample(values: samples[index])
            let ratio = Sample(values: zip(samples[index], samples[0]).map { $0 / $1 })
            let goal = configuration.preload.first == seam && configuration.mode != "watched" ? "; goal ≤ 1.05" : ""
            BenchFigures.record("pwrite 4 KiB, \(configuration.name)", unit: "ns", sample, goal: goal.isEmpty ? nil : "≤ 1.05 × no preload",
                                peer: index == 0 ? nil : ("no preload", plain))
            line("  \(configuration.name)", sample.formatted("ns/call", digits: 1)
                + (index == 0 ? "" : String(format: ", ×%.3f of no preload%@", ratio.median, goal)))
        }
        if !hasFiu { line("", "libfiu: skipped — /usr/lib/fiu/fiu_posix_preload.so not found (apt-get install libfiu0)") }
    }

    /// One configuration, one round: the child's ns per call.
    static func measure(_ configuration: Configuration, folder: URL) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--libc-loop", configuration.mode, folder.path, String(iterations)]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = configuration.preload.joined(separator: ":")
        environment.merge(configuration.environment) { _, new in new }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `chaos-bench --libc-loop MODE FOLDER N`: the child. Prints ns per pwrite.
    static func loop(mode: String, folder: String, iterations: Int) throws -> Double {
        let mine = "\(folder)/\(getpid())"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: mine) }
        switch mode {
        case "elsewhere":
            LibcSeam.watch("\(mine)/elsewhere")
            LibcSeam.setHook { _, _, _, _ in 0 }
        case "watched":
            LibcSeam.watch(mine)
            LibcSeam.setHook { _, _, _, _ in 0 }
        default:
            break
        }
        let fd = open("\(mine)/file", O_RDWR | O_CREAT, 0o644)
        guard fd >= 0 else { throw ChaosError.io("open: errno \(errno)") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0x5A, count: 4096)
        // Warm up the page cache and the seam's slot for this fd.
        for _ in 0..<1000 { _ = pwrite(fd, &buffer, buffer.count, 0) }
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<iterations {
            guard pwrite(fd, &buffer, buffer.count, off_t(index % 16) * 4096) == buffer.count else {
                throw ChaosError.io("pwrite: errno \(errno)")
            }
        }
        return (clock.now - start).inSeconds * 1e9 / Double(iterations)
    }
}
