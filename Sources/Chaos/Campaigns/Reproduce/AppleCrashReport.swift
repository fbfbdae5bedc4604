import Foundation

/// Reads the crash reports of Apple platforms, as a user gets them from a device, the
/// App Store or TestFlight, into what matching needs: the site and the message.
///
/// - `.crash` text: the crashed thread is headed `Thread N Crashed:`; its frames read
///   `1   MyApp   0x0000000100a4c2f8 closure #1 in Type.method() + 204 (File.swift:48)`;
///   the Swift message stands in `Application Specific Information:`.
/// - `.ips` JSON (iOS 15, macOS 12 on): a metadata line, then the report:
///   `threads[faultingThread].frames[]` with `imageIndex`, `sourceFile`, `sourceLine`;
///   `usedImages[]`; the application-specific information in `asi`.
///
/// Related Apple documentation: "Interpreting the JSON format of a crash report",
/// "Examining the fields in a crash report".
enum AppleCrashReport {
    /// The signature of an Apple crash report, nil when `text` is not one.
    static func signature(_ text: String) -> CrashSignature? {
        if let json = ipsSignature(text) { return json }
        guard text.contains("Exception Type:") || text.range(of: #"Thread \d+ Crashed"#, options: .regularExpression) != nil else {
            return nil
        }
        return CrashSignature(site: crashedFrameSite(text), message: message(in: text.split(separator: "\n").map(String.init)))
    }

    // MARK: - .crash text

    /// `File.swift:LINE` of the first frame of the crashed thread in the app's own code.
    static func crashedFrameSite(_ text: String) -> String? {
        var inCrashed = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.range(of: #"^Thread \d+ Crashed"#, options: .regularExpression) != nil {
                inCrashed = true
                continue
            }
            guard inCrashed else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count >= 3, !isSystemImage(String(columns[1])) else { continue }
            guard let open = line.range(of: "(", options: .backwards), line.hasSuffix(")") else { continue }
            let location = line[open.upperBound..<line.index(before: line.endIndex)]
            let parts = location.split(separator: ":")
            guard parts.count >= 2, parts[0].hasSuffix(".swift"), let number = Int(parts[1]),
                  TrapParser.isProjectCode(String(parts[0])) else { continue }
            return "\(parts[0]):\(number)"
        }
        return nil
    }

    /// The `Fatal error` message, from any line that carries one.
    static func message(in lines: [String]) -> String? {
        for line in lines {
            guard let range = line.range(of: "Fatal error: ") else { continue }
            return CrashSignature.normalized(String(line[range.upperBound...]))
        }
        return nil
    }

    /// The Swift runtime and the system's own libraries: never the site of an app's trap.
    static func isSystemImage(_ name: String) -> Bool {
        name.hasPrefix("libswift") || name.hasPrefix("libsystem") || name.hasPrefix("libdispatch")
            || name.hasPrefix("libobjc") || ["CoreFoundation", "Foundation", "UIKitCore", "SwiftUI", "dyld"].contains(name)
    }

    // MARK: - .ips JSON

    static func ipsSignature(_ text: String) -> CrashSignature? {
        guard let newline = text.firstIndex(of: "\n"),
              let metadata = try? JSONSerialization.jsonObject(with: Data(text[..<newline].utf8)) as? [String: Any],
              "\(metadata["bug_type"] ?? "")" == "309",
              let report = try? JSONSerialization.jsonObject(with: Data(text[text.index(after: newline)...].utf8)) as? [String: Any]
        else { return nil }
        return CrashSignature(site: ipsSite(report), message: ipsMessage(report))
    }

    private static func ipsSite(_ report: [String: Any]) -> String? {
        let threads = report["threads"] as? [[String: Any]] ?? []
        let faulting = (report["faultingThread"] as? Int).flatMap { threads.indices.contains($0) ? threads[$0] : nil }
            ?? threads.first { $0["triggered"] as? Bool == true }
        let images = report["usedImages"] as? [[String: Any]] ?? []
        for frame in faulting?["frames"] as? [[String: Any]] ?? [] {
            guard let file = frame["sourceFile"] as? String, let line = frame["sourceLine"] as? Int else { continue }
            let image = (frame["imageIndex"] as? Int).flatMap { images.indices.contains($0) ? images[$0] : nil }
            if let name = image?["name"] as? String, isSystemImage(name) { continue }
            let name = URL(fileURLWithPath: file).lastPathComponent
            guard TrapParser.isProjectCode(name) else { continue }
            return "\(name):\(line)"
        }
        return nil
    }

    /// The `Fatal error` message of `asi` (application-specific information: image →
    /// strings), else anywhere in the report.
    private static func ipsMessage(_ report: [String: Any]) -> String? {
        var strings: [String] = []
        if let asi = report["asi"] as? [String: Any] {
            for value in asi.values {
                if let list = value as? [String] { strings += list } else if let text = value as? String { strings.append(text) }
            }
        }
        if let found = message(in: strings) { return found }
        let whole = (try? JSONSerialization.data(withJSONObject: report)).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        guard let range = whole.range(of: "Fatal error: ") else { return nil }
        let rest = whole[range.upperBound...].prefix { $0 != "\"" }
        return CrashSignature.normalized(String(rest).replacingOccurrences(of: "\\/", with: "/"))
    }
}
