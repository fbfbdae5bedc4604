/// Where a scenario came from, as a fact the loader records: the target's own catalog
/// (a command names it by its name), the storage catalog of `chaos check` (reproduced
/// with `chaos check --only NAME`), or a file of the user's.
package enum ScenarioOrigin: Sendable, Equatable {
    case catalog
    case storageCatalog
    case file(path: String)

    /// How a report names the scenario's file (``CaseReport/scenarioFile``): a path, or
    /// `catalog/NAME.yaml` and `check/NAME.yaml` for a catalog's, wherever Chaos and the
    /// target are installed, so that a report from a CI runner reproduces on a laptop.
    package func reportedFile(name: String) -> String {
        switch self {
        case .catalog: "\(Self.catalogFolder)/\(name).yaml"
        case .storageCatalog: "\(Self.checkFolder)/\(name).yaml"
        case let .file(path): path
        }
    }

    /// Reads ``reportedFile(name:)`` back.
    package init(reportedFile: String, name: String) {
        switch reportedFile {
        case "\(Self.catalogFolder)/\(name).yaml": self = .catalog
        case "\(Self.checkFolder)/\(name).yaml": self = .storageCatalog
        default: self = .file(path: reportedFile)
        }
    }

    static let catalogFolder = "catalog"
    static let checkFolder = "check"
}
