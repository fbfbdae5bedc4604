import Foundation

/// The settings screen's "Help" link (seed 000's SettingsView), built from the app's
/// configuration: the site its help pages are on. The old screen force-unwrapped
/// `URL(string:)`, so a configuration that is not a valid host (a space, nothing at
/// all) trapped on opening settings; here it is ``VocabularyError/invalidConfiguration(setting:)``
/// (seed 000's `AppError.invalidConfiguration`): the link is not offered, the user
/// is told so, and the error is logged.
public enum HelpLink {
    /// The help site of a build that configures none.
    public static let defaultSite = "help.example.com"

    public static func url(site: String) throws(VocabularyError) -> URL {
        guard let url = URL(string: "https://\(site)/spelling-help"), url.host?.isEmpty == false else {
            AppLog.screens.error("The help link's configuration is not valid", metadata: ["setting": "help site"])
            throw .invalidConfiguration(setting: "help site")
        }
        return url
    }
}
