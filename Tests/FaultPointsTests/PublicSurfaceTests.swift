import Foundation
import Testing

/// The core/control split, kept true: what `public` names in Sources/FaultPoints is the
/// app-facing API alone — marking points, catching what they throw, scoping faults to a
/// test. The registry that arms points, the `Duration` helpers and the seeded generator
/// are `package`, for the worker, the controller and the tests; a `public` added to any
/// of them reaches every app that links FaultPoints, and fails here first.
@Suite struct PublicSurfaceTests {
    /// Every declaration FaultPoints makes `public`, by its qualified name (overloads
    /// share one). Growing this list grows every app's view of FaultPoints: say why.
    static let appFacing: Set<String> = [
        // Marking a point: app code.
        "FaultPoint", "FaultPoint.name", "FaultPoint.init", "FaultPoint.description", "FaultPoint.hit",
        // What a point throws: app code catches it.
        "InjectedFault", "InjectedFault.point", "InjectedFault.hit", "InjectedFault.message", "InjectedFault.init",
        "InjectedFault.description", "InjectedFault.errorDescription",
        // Faults scoped to a unit test, and what fired in the scope.
        "FaultAction", "ScopedFault", "ScopedFault.pattern", "ScopedFault.action", "ScopedFault.after",
        "ScopedFault.times", "ScopedFault.init", "ScopedFault.throw", "ScopedFault.delay", "withFaults",
        "FaultScope", "FaultScope.current", "FaultScope.firings",
        "PointFiring", "PointFiring.point", "PointFiring.id", "PointFiring.hit", "PointFiring.action",
    ]

    static var faultPointsSources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FaultPoints")
    }

    @Test func onlyTheAppFacingAPIIsPublic() throws {
        let enumerator = FileManager.default.enumerator(at: Self.faultPointsSources, includingPropertiesForKeys: nil)
        let files = (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
        #expect(files.count >= 6, "the sources were found (\(Self.faultPointsSources.path))")
        var found: Set<String> = []
        var outside: [String] = []
        for file in files {
            for declaration in PublicDeclarations.of(try String(contentsOf: file, encoding: .utf8)) {
                found.insert(declaration.name)
                if !Self.appFacing.contains(declaration.name) {
                    outside.append("\(file.lastPathComponent):\(declaration.line) \(declaration.name)")
                }
            }
        }
        #expect(outside.isEmpty, "public outside the app-facing API (make it package):\n\(outside.sorted().joined(separator: "\n"))")
        let gone = Self.appFacing.subtracting(found).sorted()
        #expect(gone.isEmpty, "listed as app-facing but not public any more (take it off the list): \(gone)")
    }

    @Test func theScanQualifiesNamesAndIgnoresCommentsAndStrings() {
        let text = """
            /// A doc comment that says public func nothing()
            public struct Outer: Sendable {
                public let value: String = "public var fake"  // public var trailing
                /* public func blocked() { } */
                @usableFromInline package func hidden() { let s = "\\(value) public" }
                public static func `throw`() { }
                public enum Inner {
                    @TaskLocal public static var current: Int?
                }
            }
            public extension Duration { }
            public func free() { }
            """
        let names = PublicDeclarations.of(text).map(\.name)
        #expect(names == ["Outer", "Outer.value", "Outer.throw", "Outer.Inner", "Outer.Inner.current", "extension Duration", "free"])
    }
}

/// The `public` (or `open`) declarations of a Swift file, each named with the types that
/// enclose it, found outside comments and strings: a measure, not a parser.
enum PublicDeclarations {
    static let kinds: Set<String> = ["func", "var", "let", "init", "subscript", "struct", "class", "enum", "protocol",
                                     "actor", "typealias", "extension", "case", "associatedtype", "macro"]
    static let typeKinds: Set<String> = ["struct", "class", "enum", "protocol", "actor", "extension"]

    static func of(_ text: String) -> [(name: String, line: Int)] {
        var found: [(name: String, line: Int)] = []
        var types: [(depth: Int, name: String)] = []
        var pendingType: String?
        var depth = 0
        for (index, line) in code(of: text).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "@") }.map(String.init)
            if let kind = words.firstIndex(where: typeKinds.contains), kind + 1 < words.count { pendingType = words[kind + 1] }
            if let modifier = words.firstIndex(where: { $0 == "public" || $0 == "open" }) {
                let path = types.map(\.name)
                if let kind = words[modifier...].firstIndex(where: kinds.contains) {
                    let name = ["init", "subscript"].contains(words[kind]) ? words[kind]
                        : words[kind] == "extension" ? "extension " + (kind + 1 < words.count ? words[kind + 1] : "?")
                        : kind + 1 < words.count ? words[kind + 1] : "?"
                    found.append(((path + [name]).joined(separator: "."), index + 1))
                } else if words[modifier] == "public" {
                    found.append(("a public this scan cannot read", index + 1))
                }
            }
            for character in line {
                if character == "{" {
                    if let name = pendingType { types.append((depth, name)); pendingType = nil }
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                    if types.last?.depth == depth { types.removeLast() }
                }
            }
        }
        return found
    }

    /// The text with comments and string literals (interpolations included) blanked,
    /// line breaks kept.
    static func code(of text: String) -> String {
        enum State { case code(parens: Int), string(multiline: Bool), lineComment, blockComment }
        var stack: [State] = [.code(parens: -1)]
        var result = ""
        let characters = Array(text)
        var index = 0
        func starts(_ token: String) -> Bool { characters[index...].starts(with: token) }
        while index < characters.count {
            let character = characters[index]
            guard let state = stack.last else { break }
            if character == "\n" { result.append("\n") }
            switch state {
            case let .code(parens):
                if starts("//") { stack.append(.lineComment); index += 2; continue }
                if starts("/*") { stack.append(.blockComment); index += 2; continue }
                if starts("\"\"\"") { stack.append(.string(multiline: true)); index += 3; continue }
                if character == "\"" { stack.append(.string(multiline: false)); index += 1; continue }
                if character == "(" && parens >= 0 { stack[stack.count - 1] = .code(parens: parens + 1) }
                if character == ")" && parens >= 0 {
                    if parens == 1 { stack.removeLast(); index += 1; continue }  // an interpolation ends
                    stack[stack.count - 1] = .code(parens: parens - 1)
                }
                if character != "\n" { result.append(character) }
            case let .string(multiline):
                if starts("\\(") { stack.append(.code(parens: 1)); index += 2; continue }
                if character == "\\" {
                    if index + 1 < characters.count, characters[index + 1] == "\n" { result.append("\n") }
                    index += 2
                    continue
                }
                if multiline ? starts("\"\"\"") : character == "\"" { stack.removeLast(); index += multiline ? 3 : 1; continue }
            case .lineComment:
                if character == "\n" { stack.removeLast() }
            case .blockComment:
                if starts("*/") { stack.removeLast(); index += 2; continue }
                if starts("/*") { stack.append(.blockComment); index += 2; continue }
            }
            index += 1
        }
        return result
    }
}
