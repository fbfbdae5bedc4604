/// The app's settings: a fixed set, as a settings screen has (seed 004's
/// `colorScheme` and its neighbours). Each has a stable row id, so a setting is the
/// same record in the store, in the fallback file and in a scenario's snapshot.
public enum SettingKey: String, CaseIterable, Sendable, Codable {
    case colorScheme = "color-scheme"
    case fontSize = "font-size"
    case notifications
    case language
    case units

    /// The setting's row id in the `setting` table.
    public var id: Int64 {
        switch self {
        case .colorScheme: 1
        case .fontSize: 2
        case .notifications: 3
        case .language: 4
        case .units: 5
        }
    }

    /// What the app uses until the user chooses. Defaults are never written to the
    /// store: only the user's own choices are records.
    public var defaultValue: String {
        switch self {
        case .colorScheme: "system"
        case .fontSize: "medium"
        case .notifications: "on"
        case .language: "en"
        case .units: "metric"
        }
    }

    /// A value the user may choose: non-empty, at most 100 characters.
    public static func isAcceptable(_ value: String) -> Bool {
        !value.isEmpty && value.count <= 100
    }
}
