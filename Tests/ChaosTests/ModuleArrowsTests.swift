import Foundation
import ReferenceTarget
import Testing

/// Which module may import which: the arrows docs/ARCHITECTURE.md writes down ("Which
/// module may import which"), held here against every `import` of every Swift file under
/// Sources/. The framework knows no app: `Chaos`, `ChaosTarget` and `ChaosTesting` import
/// nothing of the reference app, name none of its modules, and name none of its
/// variants — the reference app reaches them as a user's target does, and they reach it
/// only through what it declares.
@Suite struct ModuleArrowsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The framework's modules, and what of the reference app none of them may name.
    static let framework = ["Chaos", "ChaosTarget", "ChaosTesting"]
    static let referenceModules = ["SystemUnderTest", "ReferenceTarget", "ReferenceScenarios"]

    /// Modules of the toolchain and the platform: anyone may import them.
    static let platform: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Dispatch", "Synchronization", "Testing",
                                        "XCTest", "_Concurrency", "os"]

    /// The arrows as the doc's table writes them: module → the modules it may import.
    static func documentedArrows() throws -> [String: Set<String>] {
        let doc = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        guard let start = doc.range(of: "## Which module may import which") else { return [:] }
        var arrows: [String: Set<String>] = [:]
        for line in doc[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[1].hasPrefix("`") else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let allowed = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            arrows[module] = Set(allowed.filter { !$0.isEmpty && $0 != "—" })
        }
        return arrows
    }

    /// Every Swift file of a module: those of its folder (`Sources/NAME`). The folder
    /// `Sources/Scenarios` holds two modules of resources, each with one Swift file named
    /// for it (`StorageCatalog.swift`, `ReferenceScenarios.swift`).
    static func files(of module: String) -> [URL] {
        let shared = root.appendingPathComponent("Sources/Scenarios/\(module).swift")
        if FileManager.default.fileExists(atPath: shared.path) { return [shared] }
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(module)
        let all = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        return all.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The modules a Swift file imports (`@testable`, `internal`, `package` and the like aside).
    static func imports(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ").map(String.init).filter { !$0.hasPrefix("@") }
            guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ ["internal", "package", "public", "private", "fileprivate"].contains($0) }),
                  index + 1 < words.count else { return nil }
            // `import struct Foo.Bar` names its module after the kind.
            let name = ["struct", "class", "enum", "protocol", "func", "var", "typealias"].contains(words[index + 1]) && index + 2 < words.count
                ? words[index + 2] : words[index + 1]
            return String(name.split(separator: ".").first ?? "")
        }
    }

    /// Each Swift module of Sources/: a folder's name, or a Swift file's of `Sources/Scenarios`.
    static var modules: [String] {
        let sources = root.appendingPathComponent("Sources")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        let shared = ((try? FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent("Scenarios").path)) ?? [])
            .filter { $0.hasSuffix(".swift") }.map { String($0.dropLast(6)) }
        return (folders.filter { $0 != "Scenarios" } + shared).filter { !files(of: $0).isEmpty }.sorted()
    }

    @Test func everyImportIsAnArrowTheArchitectureAllows() throws {
        let arrows = try Self.documentedArrows()
        #expect(Self.framework.allSatisfy { arrows[$0] != nil }, "the table was read: \(arrows.keys.sorted())")
        var stray: [String] = []
        for module in Self.modules {
            guard let allowed = arrows[module] else {
                stray.append("\(module): not in the table of docs/ARCHITECTURE.md")
                continue
            }
            for file in Self.files(of: module) {
                for imported in Self.imports(in: try String(contentsOf: file, encoding: .utf8))
                where imported != module && !allowed.contains(imported) && !Self.platform.contains(imported) {
                    stray.append("\(module) imports \(imported) (\(file.lastPathComponent))")
                }
            }
        }
        #expect(stray.isEmpty, "\(stray.joined(separator: "\n"))")
    }

    @Test func theFrameworkNamesNoModuleOfTheReferenceApp() throws {
        let arrows = try Self.documentedArrows()
        var named: [String] = []
        for module in Self.framework {
            #expect(arrows[module]?.isDisjoint(with: Self.referenceModules) == true, "\(module) may not import the reference app")
            for file in Self.files(of: module) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for name in Self.referenceModules where Self.words(of: text).contains(name) {
                    named.append("\(module)/\(file.lastPathComponent) names \(name)")
                }
            }
        }
        #expect(named.isEmpty, "\(named.joined(separator: "\n"))")
    }

    @Test @MainActor func theFrameworkNamesNoVariantOfTheReferenceApp() throws {
        let variants = ReferenceApp.declaration.variants.map { $0.lowercased() }
        #expect(variants.count >= 2, "the reference app declares its variants: \(variants)")
        var named: [String] = []
        for module in Self.framework {
            for file in Self.files(of: module) {
                let words = Self.words(of: try String(contentsOf: file, encoding: .utf8).lowercased())
                for variant in variants where words.contains(variant) {
                    named.append("\(module)/\(file.lastPathComponent) names the variant '\(variant)'")
                }
            }
        }
        #expect(named.isEmpty, "\(named.joined(separator: "\n"))")
    }

    @Test func theImportReaderReadsEveryForm() {
        let text = """
            import Foundation
            @testable import Chaos
            internal import ChaosTarget
            @preconcurrency import Dispatch
            import struct GRDB.Row
            // import NotAnImport
            let important = 1
            """
        #expect(Self.imports(in: text) == ["Foundation", "Chaos", "ChaosTarget", "Dispatch", "GRDB"])
    }

    /// The identifier-like words of a text: `ReferenceTarget` in `import ReferenceTarget`,
    /// `legacy` in `"legacy"` or `--variant legacy`, never inside a longer word.
    static func words(of text: String) -> Set<String> {
        Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }
}
