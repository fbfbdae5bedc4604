internal import Chaos
internal import ChaosTarget
import Foundation
import Testing

/// The app a test runs scenarios against: an executable of your package that links
/// `ChaosTarget`, found beside the tests, or one at a path.
public struct TargetUnderTest: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case product(String)
        case path(String)
    }

    let kind: Kind

    /// An executable product of this package, built beside the test bundle (`swift
    /// build` and `swift test` build every product of the package).
    public static func product(_ name: String) -> TargetUnderTest { TargetUnderTest(kind: .product(name)) }
    /// An executable at `path`.
    public static func path(_ path: String) -> TargetUnderTest { TargetUnderTest(kind: .path(path)) }

    public var description: String {
        switch kind {
        case let .product(name): "product \(name)"
        case let .path(path): path
        }
    }

    /// The folder of the running test bundle, where `swift build` puts the products.
    static var productsDirectory: URL {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent()
    }

    /// The target with its variant settled, and what it declares.
    func select(variant: String?) throws -> TargetSelection {
        do {
            switch kind {
            case let .product(name):
                let executable = Self.productsDirectory.appendingPathComponent(name).path
                guard FileManager.default.isExecutableFile(atPath: executable) else {
                    throw ChaosTestingError("no executable product '\(name)' beside the tests in \(Self.productsDirectory.path): "
                        + "declare it in Package.swift (an executableTarget that links ChaosTarget), or give .path(...)")
                }
                return try TargetSelection.userTarget(at: executable, variant: variant)
            case let .path(path):
                return try TargetSelection.userTarget(at: path, variant: variant)
            }
        } catch let failure as TargetSelection.Failure {
            throw ChaosTestingError("\(self): \(failure.description)")
        }
    }
}

/// A scenario file, for parameterised tests (``scenarioFiles(in:filePath:)``).
public struct ScenarioFile: Sendable, CustomStringConvertible {
    /// Its path.
    public let path: String

    public var description: String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }

    /// A path as given: beside `filePath` (a test file) if it is there, else as given.
    static func locate(_ path: String, besides filePath: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let beside = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL.path
        return FileManager.default.fileExists(atPath: beside) ? beside : path
    }

    /// The scenario `name` names: a file (beside the caller, or in the working
    /// directory), or the name of one the target ships. A load error is an issue at its line.
    static func load(_ name: String, besides filePath: String, catalog: ScenarioCatalog?) throws -> Scenario {
        do {
            return try ScenarioLoader.resolve(locate(name, besides: filePath), in: catalog)
        } catch {
            Issue.record(Comment(rawValue: error.description), sourceLocation: error.testLocation)
            throw ChaosTestingError("\(name): \(error.message)")
        }
    }
}
