/// The system ends the app for its memory (iOS's jetsam, Linux's OOM killer): when the
/// app's resident memory passes a bound, its process is killed on the spot. What it had
/// written stays (the kernel keeps its page cache); what it had not written is gone.
///
/// ```yaml
/// - fault: memory-kill
///   growth: 4MB          # or above: 200MB (resident memory); default growth 4MB
/// ```
///
/// `growth` is counted from the app's resident memory when the fault is armed (a launch
/// armed for later counts from the start of that launch); `above` is a bound of the
/// whole process. The worker reads its resident memory (`/proc/self/statm`) every
/// millisecond while the fault waits, and ends at the first reading past the bound, as
/// a power loss that keeps every write would: the case goes on with the app down until
/// the next launch, and judges what that launch finds. A bound never passed is a fault
/// that had no effect, and the next launch says so. The kill is the worker's own reading,
/// not a cgroup's: a cgroup's memory limit counts the page cache the app's files fill,
/// and would end an app that only reads a large store; the bound is the app's own memory.
package struct MemoryKillFault: PowerFault {
    package static let kind = "memory-kill"
    package static let family = FaultFamily.power
    package static let summary = "The system kills the app when its resident memory passes a bound (growth: or above:): written data stays."
    package static let example = """
        - fault: memory-kill
          growth: 4MB
        """
    package static let parameterKeys = ["growth", "above"]
    /// Its moment is the bound: it happens once.
    package static let acceptsTrigger = false
    /// The default bound, above the resident memory when armed.
    package static let defaultGrowth: Int64 = 4_000_000

    /// The bound on the whole process's resident memory; nil: `growth` counts.
    package var above: Int64?
    /// The bound above the resident memory when the fault is armed.
    package var growth: Int64

    package init(growth: Int64 = MemoryKillFault.defaultGrowth, above: Int64? = nil) {
        self.growth = growth
        self.above = above
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        if parameters.contains("growth"), parameters.contains("above") {
            throw parameters.error("a memory kill has one bound: give 'growth' (above the memory when armed) or 'above' (of the whole process), not both", at: "above")
        }
        above = try DiskFullFault.size(parameters, "above")
        growth = try DiskFullFault.size(parameters, "growth") ?? Self.defaultGrowth
        if above == 0 { throw parameters.error("'above' must be more than 0: every process has some memory", at: "above") }
    }

    /// `memory-kill above 200MB`, `memory-kill growth 4MB`.
    package var label: String {
        if let above { return "\(Self.kind) above \(DiskFullFault.format(above))" }
        return "\(Self.kind) growth \(DiskFullFault.format(growth))"
    }

    package var isDeferred: Bool { true }
    package var tearsWrites: Bool { false }

    package func order(caseSeed: UInt64) -> PowerLossOrder {
        var order = PowerLossOrder(mode: .keep, seed: caseSeed)
        order.memory = above.map { .above($0) } ?? .growth(growth)
        return order
    }
}
