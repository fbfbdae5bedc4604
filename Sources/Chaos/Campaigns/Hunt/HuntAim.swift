import ChaosTarget

/// What a hunt aimed at one crash leans towards (`chaos reproduce --from-crash` when no
/// scenario traps that way): the faults whose errors the crash's message names (a
/// damaged file for "file is not a database", a full disk for "database or disk is
/// full", the network for "connection refused"), and the actions whose names its
/// backtrace's frames carry (`FragileNotesRepository.add` → `notes.add`). It only
/// weighs the draws: every family stays reachable, so a crash whose message says
/// nothing is still hunted, just not aimed.
package struct HuntAim: Sendable, Equatable {
    /// How much more often each of the generator's fault choices is drawn.
    package var weights: [Choice: Int] = [:]
    /// Actions to draw more often (names as the target declares them).
    package var actions: Set<String> = []

    /// One of the generator's fault choices: a group of kinds (each kind says which).
    package typealias Choice = HuntGroup

    package init(weights: [Choice: Int] = [:], actions: Set<String> = []) {
        self.weights = weights
        self.actions = actions
    }

    /// The weight of `choice`, times its aim (1 when not aimed).
    func weigh(_ choice: Choice, _ weight: Int) -> Int { weight * (weights[choice] ?? 1) }

    /// The aim of a crash: from its message's words and its frames' names.
    package init(message: String?, frames: [String], actions declared: [String]) {
        let text = (message ?? "").lowercased()
        func says(_ words: [String]) -> Bool { words.contains { text.contains($0) } }
        if says(["not a database", "malformed", "corrupt", "error 26", "error 11", "notadb", "encrypted"]) { weights[.fileDamage] = 6 }
        if says(["disk is full", "no space", "error 13", "sqlite_full", "enospc"]) { weights[.diskFull] = 8 }
        if says(["i/o error", "ioerr", "error 10", "eio", "input/output"]) { weights[.storage] = 4 }
        if says(["unable to open", "error 14", "readonly", "read-only", "error 8", "permission denied", "no such file"]) {
            weights[.fileDamage] = max(weights[.fileDamage] ?? 1, 4)
            weights[.storage] = max(weights[.storage] ?? 1, 3)
        }
        if says(["locked", "busy", "error 5", "error 6"]) { weights[.storage] = max(weights[.storage] ?? 1, 4) }
        if says(["connect", "network", "timed out", "timeout", "refused", "reset by peer", "econn", "socket", "broken pipe"]) {
            weights[.network] = 6
        }
        if says(["context", "invalidated", "reset"]) { weights[.point] = 3 }
        // Frames name the code that crashed: an action whose words are in them is the one to do.
        let frameWords = Set(frames.flatMap { HuntOracle.Failure.words($0) })
        for action in declared {
            let words = HuntOracle.Failure.words(action).filter { $0.count > 2 }
            if let verb = words.last, frameWords.contains(verb) { actions.insert(action) }
        }
    }
}
