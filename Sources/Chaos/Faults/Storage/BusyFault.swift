/// Another process holds the database lock: taking the write lock fails with
/// `SQLITE_BUSY` (after the app's own busy timeout, if it has one).
///
/// ```yaml
/// - fault: busy
///   times: 3
/// ```
public struct BusyFault: Fault {
    public static let kind = "busy"
    public static let family = FaultFamily.storage
    public static let summary = "Make taking the store's write lock fail with SQLITE_BUSY, as when another process holds it."
    public static let example = """
        - fault: busy
          times: 3
        """
    public static let parameterKeys: [String] = []
    public static let acceptsTrigger = true
    public static let acceptsStorageFile = true

    public init() {}

    public init(parameters: ScenarioParameters) throws(ScenarioError) {}

    public var label: String { Self.kind }
}
