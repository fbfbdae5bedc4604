import Foundation
import ChaosTarget

/// How a run is carried out: on which target (bound once: ``TargetSelection``), with
/// which seed, where its scratch goes.
package struct RunOptions: Sendable {
    /// The target, its variant and its declaration.
    package var target: TargetSelection
    /// Overrides every scenario's own seed when set (`--seed`).
    package var seed: UInt64?
    /// Keep each case's scratch directory (`--keep`).
    package var keepScratch: Bool
    /// Where scratch directories are made.
    package var scratchRoot: URL
    /// Target options that override the scenario's own (`--option synchronous=off`).
    package var optionOverrides: [String: String] = [:]

    package init(target: TargetSelection, seed: UInt64?, keepScratch: Bool,
                 scratchRoot: URL = FileManager.default.temporaryDirectory) {
        self.target = target
        self.seed = seed
        self.keepScratch = keepScratch
        self.scratchRoot = scratchRoot
    }

    /// One of the variants the target declares (any name for one that declares none).
    package var variant: String { target.variant }

    /// How a worker of the target starts (a sweep names its traps' sites or not).
    package var worker: WorkerCommand {
        get { target.worker }
        set { target.worker = newValue }
    }
}

extension RunOptions {
    /// The words of a reproduce line after its seed and variant: every choice of this run
    /// that the scenario does not hold — the target options (`--option K=V`, sorted) and
    /// a user's target (`--target-exec PATH`). A printed line must give the same verdict.
    package var reproduceExtras: [String] {
        var words: [String] = []
        for (key, value) in optionOverrides.sorted(by: { $0.key < $1.key }) { words += ["--option", "\(key)=\(value)"] }
        if let path = target.targetExec { words += ["--target-exec", path] }
        return words
    }
}
