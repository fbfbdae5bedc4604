import Foundation

/// Every figure `make bench` prints, also kept for `reports/bench.json` (or the file
/// `CHAOS_BENCH_JSON` names): one object per figure — name, unit, median, min, max,
/// and the peer's figure where one was measured beside it in the same run.
enum BenchFigures {
    struct Figure: Encodable {
        var name: String
        var unit: String
        var median: Double
        var min: Double
        var max: Double
        var goal: String?
        var peer: Peer?
    }

    struct Peer: Encodable {
        var name: String
        var median: Double
        var min: Double
        var max: Double
    }

    nonisolated(unsafe) private static var figures: [Figure] = []
    /// The planted defects' table (`make bench`'s `defects` section), when it ran.
    nonisolated(unsafe) static var defects: [DefectsBenchmark.Row]?

    /// Keeps a figure (the benchmarks run one at a time, on the main thread).
    static func record(_ name: String, unit: String, _ sample: Sample, goal: String? = nil,
                       peer: (name: String, sample: Sample)? = nil) {
        figures.append(Figure(name: name, unit: unit, median: sample.median, min: sample.min, max: sample.max, goal: goal,
                              peer: peer.map { Peer(name: $0.name, median: $0.sample.median, min: $0.sample.min, max: $0.sample.max) }))
    }

    /// Writes the figures kept so far; says where.
    static func write(sections: [String]) {
        let path = ProcessInfo.processInfo.environment["CHAOS_BENCH_JSON"] ?? "reports/bench.json"
        struct Document: Encodable {
            var date: String
            var cores: Int
            var sections: [String]
            var figures: [Figure]
            var defects: [DefectsBenchmark.Row]?
        }
        let document = Document(date: ISO8601DateFormatter().string(from: Date()), cores: ProcessInfo.processInfo.activeProcessorCount,
                                sections: sections, figures: figures, defects: defects)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(document).write(to: url)
            print("figures: \(path)")
        } catch {
            FileHandle.standardError.write(Data("chaos-bench: could not write \(path): \(error)\n".utf8))
        }
    }
}
