/// Percentages as scenarios write them: `5%`, `0.5%`, `100%`, read as a fraction in `0...1`.
package enum ScenarioPercent {
    /// The fraction `text` spells, or nil when it is not a percentage from 0% to 100%.
    package static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasSuffix("%") else { return nil }
        let number = trimmed.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }),
              let value = Double(number), value >= 0, value <= 100
        else { return nil }
        return value / 100
    }

    /// Like ``parse(_:)``, or a located ``ScenarioError``.
    package static func parse(_ text: String, at location: SourceLocation) throws(ScenarioError) -> Double {
        guard let fraction = parse(text) else {
            throw ScenarioError("expected a percentage from 0% to 100% like 5% or 0.5%, found '\(text)'", at: location)
        }
        return fraction
    }

    /// `0.05` → `5%`, `0.005` → `0.5%`.
    package static func format(_ fraction: Double) -> String {
        let percent = (fraction * 100 * 1_000_000).rounded() / 1_000_000
        guard percent.isFinite, percent.magnitude < 1e15 else { return "\(percent)%" }
        if percent == percent.rounded() { return "\(Int(percent))%" }
        return "\(percent)%"
    }
}
