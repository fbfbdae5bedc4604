// LEGACY — seed 000's SettingsView before the fix, kept on purpose (see LegacyStore.swift
// for why this folder exists): the help link is force-unwrapped, so a help site that is
// not a valid host ends the app with "Unexpectedly found nil".
import Foundation

enum LegacyHelpLink {
    static func url(site: String) -> URL {
        URL(string: "https://\(site)/spelling-help")!
    }
}
