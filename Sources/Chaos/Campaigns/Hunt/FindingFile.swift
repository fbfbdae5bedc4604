/// What a finding's file says of itself, in comments above the scenario: that it is
/// 1-minimal (no step can be removed or made simpler and the app still fail this way)
/// or how far shrinking got, how often it fails, and what happened. The scenario below
/// is what runs; the comments are for the person who commits it.
package enum FindingFile {
    static func header(_ finding: HuntFinding, before: HuntShrinker.Rate) -> String {
        var lines = ["Found by chaos hunt: \(finding.failure)."]
        if let untried = finding.untriedSteps ?? (finding.cutShort ? 0 : nil) {
            lines.append("cut short: shrinking stopped with \(untried) step\(untried == 1 ? "" : "s") not yet tried for removal; "
                + "`chaos hunt --shrink \(finding.file)` goes on from here.")
        } else {
            lines.append(minimalMark)
        }
        if let rate = finding.rateText {
            let beforeText = before.isFull ? "" : "; the first schedule failed \(before.text) times"
            lines.append("fails: \(rate) from this file\(beforeText)"
                + (finding.flaky == true ? ": it depends on timing, and a run may pass." : "."))
        }
        if let explanation = finding.explanation { lines.append("what happened: " + explanation) }
        // Every line a comment, whatever the evidence held.
        let flat = lines.map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
        return flat.flatMap { wrapped($0, width: 86) }.map { "# " + $0 }.joined(separator: "\n") + "\n"
    }

    /// The mark of a finding no single edit makes smaller.
    static let minimalMark = "minimal: no step can be removed or made simpler and the app still fail this way."

    /// `text` in lines of at most `width` characters, broken between words (a word
    /// longer than that stands alone).
    package static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = "  " + word
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
