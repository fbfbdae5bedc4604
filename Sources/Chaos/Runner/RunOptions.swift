import Foundation

/// How a run is carried out: which target, which variant, which seed.
public struct RunOptions: Sendable {
    /// `hardened` or `legacy` (the built-in target), or a user target's own variant.
    public var variant: String
    /// Overrides every scenario's own seed when set (`--seed`).
    public var seed: UInt64?
    /// Keep each case's scratch directory (`--keep`).
    public var keepScratch: Bool
    public var worker: WorkerCommand
    /// Where scratch directories are made.
    public var scratchRoot: URL
    /// The words after `chaos run NAME` that reproduce a case (`--target-exec PATH`...).
    public var reproduceExtras: [String]
    /// Target options that override the scenario's own (`--option synchronous=off`).
    public var optionOverrides: [String: String] = [:]
    /// Starts the workers instead of ``worker``: a test's app without a process.
    var launcher: (any WorkerLauncher & Sendable)?

    public init(variant: String, seed: UInt64?, keepScratch: Bool, worker: WorkerCommand,
                scratchRoot: URL = FileManager.default.temporaryDirectory, reproduceExtras: [String] = []) {
        self.variant = variant
        self.seed = seed
        self.keepScratch = keepScratch
        self.worker = worker
        self.scratchRoot = scratchRoot
        self.reproduceExtras = reproduceExtras
    }
}
