import Foundation

/// The key-value file the settings fall back on while the store's breaker is open
/// (seed 004's UserDefaults): every setting's current value, and which of them were
/// written while the store could not take them (``Contents/pending``), to be merged
/// back into the store when the breaker closes.
///
/// It also mirrors the store while the breaker is closed, so that when the store
/// fails, the file already holds every setting the user chose.
///
/// Written atomically: the new contents go to a temporary file, which is synced and
/// then renamed over the old one. A crash mid-write leaves the old file whole; a file
/// that cannot be read is treated as empty rather than trusted.
public struct SettingsFallbackFile: Sendable {
    public struct Contents: Codable, Sendable, Equatable {
        public var values: [String: String] = [:]
        /// Keys written while the breaker was open, not yet in the store.
        public var pending: [String] = []

        public init(values: [String: String] = [:], pending: [String] = []) {
            self.values = values
            self.pending = pending
        }
    }

    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The file beside the store, in the app's data folder.
    public init(directory: URL) {
        self.init(url: directory.appendingPathComponent("settings-fallback.json"))
    }

    var temporaryURL: URL { url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".tmp") }

    /// What the file holds; empty when it is missing or unreadable.
    public func read() -> Contents {
        guard let data = try? Data(contentsOf: url),
              let contents = try? JSONDecoder().decode(Contents.self, from: data) else { return Contents() }
        return contents
    }

    /// Replaces the file's contents atomically: temporary file, sync, rename.
    public func write(_ contents: Contents) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        var normalized = contents
        normalized.pending = Array(Set(contents.pending)).sorted()
        let data = try encoder.encode(normalized)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = temporaryURL
        try? FileManager.default.removeItem(at: temporary)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
