import ChaosTarget
import Foundation

extension TargetDeclaration {
    /// The longest name a declaration may hold (a file's path, an action, a probe…).
    static let maxNameLength = 1_024

    /// Why a declaration holds a name a report cannot print as it is (empty, a control
    /// character, over ``maxNameLength``); nil when every name is one it can.
    var nameProblem: String? {
        let named: [(String, [String])] = [
            ("file", Array(files.keys) + Array(files.values)), ("action", actions), ("probe", probes),
            ("mode", modes), ("variant", variants), ("option", options.map(\.name)), ("own record", ownRecords),
        ]
        for (what, names) in named {
            for name in names where name.isEmpty || name.count > Self.maxNameLength || name.unicodeScalars.contains(where: \.properties.isControlCharacter) {
                let shown = TerminalText.clean(String(name.prefix(60))) + (name.count > 60 ? "…" : "")
                return "it declares a \(what) name Chaos cannot use: '\(shown)' "
                    + "(\(name.count) characters; a name is 1 to \(Self.maxNameLength) characters, none of them a control character)"
            }
        }
        for (list, what) in [(unprotectedFiles, "unprotected (unprotectedFiles)"), (sharedContainer, "in a shared container (sharedContainer)")] {
            if let stray = list.first(where: { files[$0] == nil }) {
                let known = files.isEmpty ? "it declares none" : "its files are " + files.keys.sorted().joined(separator: ", ")
                return "it declares '\(TerminalText.clean(String(stray.prefix(60))))' \(what), which is not one of its files: \(known)"
            }
        }
        return nil
    }
}

extension WorkerReady {
    /// Reads a worker's first line: a `ready` event, or nil when the line is none (the
    /// executable does not speak the protocol).
    static func read(_ line: String) -> WorkerReady? {
        guard let ready = try? JSONDecoder().decode(WorkerReady.self, from: Data(line.utf8)), ready.event == "ready" else { return nil }
        return ready
    }
}

extension Unicode.Scalar.Properties {
    /// C0 and C1 controls (a name with one would drive a terminal).
    fileprivate var isControlCharacter: Bool { generalCategory == .control }
}
