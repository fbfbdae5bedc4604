/// Which build of the app runs: the hardened code, or the legacy code the seeds
/// describe (chosen at run time, so one binary serves both).
public enum AppVariant: String, Sendable, CaseIterable, Codable {
    case hardened
    case legacy
}
