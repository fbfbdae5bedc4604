import ChaosTarget
import Foundation

extension TargetDeclaration {
    /// Why a worker's first line is not a declaration Chaos can use.
    struct DeclarationProblem: Error, CustomStringConvertible {
        let description: String
        /// The line is no ready event at all (the executable does not speak the protocol),
        /// as opposed to a declaration with a name Chaos cannot use.
        var notADeclaration = false
    }

    /// The longest name a declaration may hold (a file's path, an action, a probe…).
    static let maxNameLength = 1_024

    /// Reads a worker's first line: a `ready` event whose every name is one a report
    /// can print as it is (non-empty, no control characters, at most ``maxNameLength``).
    static func decodeDeclaration(_ line: String) throws(DeclarationProblem) -> TargetDeclaration {
        guard let ready = try? JSONDecoder().decode(TargetDeclaration.self, from: Data(line.utf8)), ready.event == "ready" else {
            throw DeclarationProblem(description: "the worker's first line was not a ready event: \(TerminalText.clean(String(line.prefix(200))))",
                                     notADeclaration: true)
        }
        let named: [(String, [String])] = [
            ("file", Array(ready.files.keys) + Array(ready.files.values)), ("action", ready.actions), ("probe", ready.probes),
            ("mode", ready.modes ?? []), ("variant", ready.variants ?? []),
            ("option", (ready.options ?? []).map(\.name)), ("own record", ready.ownRecords ?? []),
        ]
        for (what, names) in named {
            for name in names where name.isEmpty || name.count > maxNameLength || name.unicodeScalars.contains(where: \.properties.isControlCharacter) {
                let shown = TerminalText.clean(String(name.prefix(60))) + (name.count > 60 ? "…" : "")
                throw DeclarationProblem(description: "the worker declares a \(what) name Chaos cannot use: '\(shown)' "
                    + "(\(name.count) characters; a name is 1 to \(maxNameLength) characters, none of them a control character)")
            }
        }
        return ready
    }
}

extension Unicode.Scalar.Properties {
    /// C0 and C1 controls (a name with one would drive a terminal).
    fileprivate var isControlCharacter: Bool { generalCategory == .control }
}
