import Foundation

/// A family's share code (seed 001): what a relative types to join. Six characters
/// from an alphabet without look-alikes (no 0/O, 1/I), so it can be read aloud.
///
/// Unique on this device by a UNIQUE constraint on `family.code`, and on the remote
/// by asking it before use (and by its 409 when two devices race).
public struct FamilyCode: Hashable, Sendable, CustomStringConvertible {
    public static let alphabet: [Character] = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    public static let length = 6

    public let text: String

    /// Nil unless `text` is exactly ``length`` characters of ``alphabet``.
    public init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        self.text = text
    }

    public static func isValid(_ text: String) -> Bool {
        text.count == length && text.allSatisfy { alphabet.contains($0) }
    }

    /// A code drawn from `rng`.
    package static func random(using rng: inout FamilyRandom) -> FamilyCode {
        FamilyCode(unchecked: String((0..<length).map { _ in alphabet.dropFirst(rng.below(alphabet.count)).first ?? "A" }))
    }

    private init(unchecked text: String) {
        self.text = text
    }

    public var description: String { text }
}

/// What a user may call a family: 1 to 50 characters once trimmed, no control characters.
public enum FamilyName {
    public static let maximumLength = 50

    /// The name to store, or nil when it is not acceptable.
    public static func validated(_ raw: String) -> String? {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= maximumLength,
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return name
    }
}
