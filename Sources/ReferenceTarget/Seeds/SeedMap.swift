import ChaosTarget
import Foundation
import ReferenceScenarios
import Yams

/// What each seed document asks of the app, and the catalog scenarios that show it
/// (`Sources/Scenarios/seeds.yaml`). `chaos seeds` writes docs/SEEDS.md from it and the
/// scenarios' verdicts on both variants; ``problems(catalog:)`` is what a test holds
/// it to: every requirement shown by at least one scenario of the catalog.
package struct SeedMap: Codable, Sendable, Equatable {
    package struct Seed: Codable, Sendable, Equatable {
        /// `000` … `004`.
        package var seed: String
        /// The document's file in `../shared/seeds/`.
        package var file: String
        package var title: String
        /// The reference app's system that ports it.
        package var system: String
        package var requirements: [Requirement]
        /// What the document asks that this port does not show, each with why.
        package var leftOut: [LeftOut]?

        enum CodingKeys: String, CodingKey {
            case seed, file, title, system, requirements
            case leftOut = "left-out"
        }
    }

    package struct Requirement: Codable, Sendable, Equatable {
        /// `001-4`.
        package var id: String
        /// The document's own section or name for it (`REQ-1`, `retryLoad()`).
        package var `where`: String
        package var text: String
        package var scenarios: [String]
    }

    package struct LeftOut: Codable, Sendable, Equatable {
        package var text: String
        package var reason: String
    }

    package var seeds: [Seed]

    /// The map shipped with the reference app's scenarios.
    package static func bundled() throws -> SeedMap {
        guard let file = ReferenceScenarios.seedMap else {
            throw ScenarioError("the seed map (seeds.yaml) is not beside the bundled scenarios", at: SourceLocation(file: "seeds.yaml", line: 1, column: 1))
        }
        return try load(from: file)
    }

    package static func load(from file: URL) throws -> SeedMap {
        let text = try String(contentsOf: file, encoding: .utf8)
        do {
            return try YAMLDecoder().decode(SeedMap.self, from: text)
        } catch {
            throw ScenarioError("\(file.lastPathComponent) is not a seed map: \(error)", at: SourceLocation(file: file.path, line: 1, column: 1))
        }
    }

    /// Every requirement, in order.
    package var requirements: [Requirement] { seeds.flatMap(\.requirements) }

    /// What is wrong with the map against the catalog's scenario names: a requirement
    /// with no scenario, a scenario the catalog does not have, an id given twice.
    package func problems(catalog: Set<String>) -> [String] {
        var problems: [String] = []
        var ids: Set<String> = []
        for requirement in requirements {
            if !ids.insert(requirement.id).inserted { problems.append("\(requirement.id) is given twice") }
            if requirement.scenarios.isEmpty {
                problems.append("\(requirement.id) (\(requirement.text)) is shown by no scenario")
            }
            for name in requirement.scenarios where !catalog.contains(name) {
                problems.append("\(requirement.id) names '\(name)', which is not a catalog scenario")
            }
        }
        return problems
    }

    /// Every scenario the map names, once, in order.
    package var scenarioNames: [String] {
        var seen: Set<String> = []
        return requirements.flatMap(\.scenarios).filter { seen.insert($0).inserted }
    }
}
