import Foundation

/// Instructions, counted by valgrind's callgrind: the same total for the same binary and
/// input whatever else the machine is doing, so a ratio of two counts shows a shim's
/// cost that the noise of a shared machine hides in seconds.
///
/// Each count is `chaos-bench --vfs-workload INDEX VFS` run under callgrind, less the
/// same run with the workload left out (`INDEX` -1): process start, SQLite's set-up
/// and the table are the same on both sides and would only dilute the ratio. Valgrind
/// 3.19 cannot read the DWARF 5 of a Swift 6.3 binary, so it runs a copy of this tool
/// without debug information (`strip --strip-debug`).
enum InstructionCount {
    static var available: Bool { valgrind != nil && strippedSelf != nil }

    static let valgrind: String? = tool("valgrind")

    private static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// This executable without its debug information, made once.
    static let strippedSelf: String? = {
        guard let strip = tool("strip") else { return nil }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-bench-stripped-\(getpid())").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strip)
        process.arguments = ["--strip-debug", "-o", copy, CommandLine.arguments[0]]
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? copy : nil
    }()

    /// Removes the stripped copy.
    static func cleanUp() {
        if let strippedSelf { try? FileManager.default.removeItem(atPath: strippedSelf) }
    }

    /// Instructions of workload `index` through `vfs`, set-up excluded.
    static func ofWorkload(_ index: Int, vfs: String) -> Int? {
        guard let total = count(index, vfs: vfs), let setUp = count(-1, vfs: vfs), total > setUp else { return nil }
        return total - setUp
    }

    private static func count(_ index: Int, vfs: String) -> Int? {
        guard let valgrind, let strippedSelf else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = ["--tool=callgrind", "--callgrind-out-file=/dev/null",
                             strippedSelf, "--vfs-workload", String(index), vfs]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        // "==123== Collected : 123456789"
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }),
              let number = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            return nil
        }
        return number
    }
}
