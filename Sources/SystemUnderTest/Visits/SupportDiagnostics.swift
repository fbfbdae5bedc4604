import Foundation

/// What "contact support" on the data-error screen sends (seed 003's mail with the
/// error details, iOS and app versions): the error domain and code, the app and OS
/// versions, and the store's state — and nothing personal. No visit, no note, no
/// place name, no file path, no free-text error message (SQLite's messages can quote
/// a path or a value): only fixed names and numbers.
public struct SupportDiagnostics: Codable, Sendable, Equatable {
    /// The reference app's version, as a bundle's short version string would give it.
    public static let appVersion = "1.0.0"

    public var errorDomain: String
    public var errorCode: Int
    /// The cause by name (`newer-version`, `damaged`...).
    public var problem: String
    /// SQLite's result code, when the technical reason carries one.
    public var sqliteResultCode: Int?
    public var storeMode: String
    public var appVersion: String
    public var osVersion: String
    /// How many files the app set aside (quarantined or reset) and kept.
    public var filesSetAside: Int

    public init(health: VisitsHealth, filesSetAside: Int,
                osVersion: String = ProcessInfo.processInfo.operatingSystemVersionString) {
        let problem = health.problem ?? .unavailable
        errorDomain = DataProblem.domain
        errorCode = problem.code
        self.problem = problem.rawValue
        sqliteResultCode = health.loadError.flatMap(Self.sqliteResultCode(in:))
        storeMode = health.storeMode.rawValue
        appVersion = Self.appVersion
        self.osVersion = osVersion
        self.filesSetAside = filesSetAside
    }

    /// The number after "SQLite error " in a technical reason, if any.
    static func sqliteResultCode(in text: String) -> Int? {
        guard let range = text.range(of: "SQLite error ") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return Int(digits)
    }

    /// Writes the diagnostics into `support/diagnostics-NNNN.json` of the data folder
    /// (numbered, never named by the clock), atomically. Returns the file.
    public func write(into directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent("support")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let numbers = existing.compactMap { name -> Int? in
            guard name.hasPrefix("diagnostics-"), name.hasSuffix(".json") else { return nil }
            return Int(name.dropFirst("diagnostics-".count).dropLast(".json".count))
        }
        let file = folder.appendingPathComponent("diagnostics-" + ((numbers.max() ?? 0) + 1).zeroPadded(width: 4) + ".json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(self).write(to: file, options: .atomic)
        return file
    }
}
