/// An app whose files are not in its data folder, told so: Chaos damages, fails and
/// cuts the power only under the data folder, so a case whose faults all missed the app
/// while it wrote files in another folder proves nothing — and says which folder, and
/// how to point the app into its data folder.
enum FilesElsewhere {
    /// How to point an app's files into the data folder, once.
    static let advice = "Chaos acts on the data folder only: open the app's files with context.path(…) "
        + "(docs/TARGETS.md, \"Files elsewhere\")"

    /// `the app wrote its files in /root/Documents instead (…)`, or nil when it wrote none outside.
    static func sentence(_ folders: [String]) -> String? {
        guard !folders.isEmpty else { return nil }
        let list = folders.prefix(3).joined(separator: ", ") + (folders.count > 3 ? " and \(folders.count - 3) more" : "")
        return "the app wrote its files in \(list), outside its data folder. \(advice)"
    }
}
