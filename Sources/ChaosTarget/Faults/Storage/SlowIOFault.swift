/// Every file operation takes longer: a slow or failing flash chip, a busy disk.
///
/// ```yaml
/// - fault: slow-io
///   latency: 20ms          # per read, write and sync (default 20ms)
///   jitter: 10ms           # plus a seeded 0...jitter (default 0)
///   on: any
/// ```
package struct SlowIOFault: StorageFault {
    package static let kind = "slow-io"
    package static let summary = "Add a seeded latency to every read, write and sync of the store's files."
    package static let example = """
        - fault: slow-io
          latency: 20ms
          jitter: 10ms
        """
    package static let parameterKeys = ["latency", "jitter"]

    package static let maximum: Duration = .seconds(10)

    package var latency: Duration
    package var jitter: Duration

    package init(latency: Duration = .milliseconds(20), jitter: Duration = .zero) {
        self.latency = latency
        self.jitter = jitter
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        latency = try parameters.duration("latency") ?? .milliseconds(20)
        jitter = try parameters.duration("jitter") ?? .zero
        guard latency <= Self.maximum else { throw parameters.error("'latency' is at most 10s per operation", at: "latency") }
        guard jitter <= Self.maximum else { throw parameters.error("'jitter' is at most 10s per operation", at: "jitter") }
        guard latency > .zero || jitter > .zero else {
            throw parameters.error("slow-io with no latency and no jitter would change nothing: give 'latency' or 'jitter'", at: "latency")
        }
    }

    package var label: String {
        jitter == .zero ? "\(Self.kind) \(ScenarioDuration.format(latency))"
            : "\(Self.kind) \(ScenarioDuration.format(latency)) ± \(ScenarioDuration.format(jitter))"
    }

    package var operations: Set<StorageCall.Operation> { [.read, .write, .sync] }

    package func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        call.isOn(on) && [.read, .write, .sync].contains(call.operation)
    }

    package func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        let jitterNanoseconds = jitter.wholeNanoseconds
        let extra = jitterNanoseconds > 0 ? rng.nextInt(in: 0...Int(jitterNanoseconds)) : 0
        return .wait(latency + .nanoseconds(extra))
    }
}
