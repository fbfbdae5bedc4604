import ChaosTarget
import Foundation

/// A test app that traps in the standard library: `word.pick` reads past the end of
/// its list, an index out of range. Built in release with the Swift runtime linked in
/// statically, it is what proves a trap is named at its own line in every build.
@main
final class IndexTrapTarget: ChaosTarget {
    static let files = ["store": "words.sqlite"]
    static let actions: [TargetAction<IndexTrapTarget>] = [
        TargetAction("word.pick", parameters: [.int("at", in: 0...100)]) { target, call in
            .done(.string(target.word(at: try call.int("at", default: 0))))
        },
    ]

    private let words = ["alpha", "beta", "gamma"]

    init(context: TargetContext) {}

    func launch() async -> Health { Health() }
    var health: Health { Health() }
    var surfaced: Surfaced { .nothing }
    func snapshot() async throws -> [String: [String: String]] { [:] }
    func stop() async {}

    /// The legacy quiz's mistake: an index the list does not have.
    @inline(never)
    func word(at index: Int) -> String {
        words[index]  // IndexTrapTarget.swift:29 — the site a trap here must name
    }
}
