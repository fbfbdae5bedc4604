/// How a `chaos` command ends, as its process exit code (docs/CI.md, "What ends a job"):
/// the one place these numbers are written.
package enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Every case passed (or was skipped).
    case passed = 0
    /// A case deviated, or was inconclusive without `--allow-inconclusive`; a sweep found
    /// a failure; a crash log matched nothing.
    case failed = 1
    /// The harness itself failed: fix it before trusting any verdict of the run.
    case harnessError = 2
    /// Bad usage or an invalid scenario: nothing ran.
    case usage = 64
    /// Interrupted (Ctrl-C): the reports cover the cases that finished.
    case interrupted = 130
}
