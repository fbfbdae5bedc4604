import Foundation

/// Where the bundled scenarios and their fixtures live.
///
/// This target holds resources only: `catalog/*.yaml` (one scenario a file) and
/// `fixtures/` (files that scenarios refer to, such as a user's damaged database).
public enum BundledScenarios {
    /// The folder of bundled scenario files.
    public static var catalogDirectory: URL? { Bundle.module.url(forResource: "catalog", withExtension: nil) }
    /// The folder of fixture files that bundled scenarios refer to by relative path.
    public static var fixturesDirectory: URL? { Bundle.module.url(forResource: "fixtures", withExtension: nil) }
}
