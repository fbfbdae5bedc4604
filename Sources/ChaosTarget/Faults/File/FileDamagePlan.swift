import Foundation

/// What a file fault decided to do to a file: a plain value, so a decision can be
/// checked in a test without touching a disk. ``FileDamage/apply(_:to:)`` carries it out.
package enum FileDamagePlan: Sendable, Equatable, CustomStringConvertible {
    /// Change bytes in place. Every edit lies within the file the plan was made for.
    case edits([ByteEdit])
    /// Cut the file to this many bytes.
    case truncate(to: Int)
    /// Remove the file.
    case delete
    /// Clear every write permission bit (`chmod a-w`).
    case makeReadOnly
    /// Put a copy of this file in its place.
    case replace(with: URL)
    /// Take the file (or folder) away until its fault is cleared (the file seam keeps it).
    case setAside

    /// SQLite's default page size, the unit of page-shaped damage.
    package static let pageSize = 4096

    package var description: String {
        switch self {
        case let .edits(edits):
            return Self.describe(edits, past: false)
        case let .truncate(size):
            return "truncate to \(size) bytes"
        case .delete:
            return "delete"
        case .makeReadOnly:
            return "make read-only"
        case let .replace(url):
            return "replace with \(url.path)"
        case .setAside:
            return "set aside until cleared"
        }
    }

    /// `overwrite 100 bytes at offset 0`, or, `past`, `overwrote 100 bytes at offset 0`.
    package static func describe(_ edits: [ByteEdit], past: Bool) -> String {
        guard let first = edits.first, let last = edits.last else { return "no change (the file is too small to damage this way)" }
        if edits.count <= 3 { return edits.map { $0.describe(past: past) }.joined(separator: "; ") }
        let bytes = edits.reduce(0) { $0 + $1.bytes.count }
        let verb = edits.allSatisfy { $0.operation == .xor } ? (past ? "flipped bits in" : "flip bits in") : (past ? "changed" : "change")
        return "\(verb) \(bytes) bytes at \(edits.count) offsets from \(first.offset) to \(last.range.upperBound - 1)"
    }
}

/// A change of bytes at one offset.
package struct ByteEdit: Sendable, Equatable, CustomStringConvertible {
    package enum Operation: Sendable, Equatable {
        /// Write `bytes` over what is there.
        case overwrite
        /// XOR what is there with `bytes` (flips bits without knowing the content).
        case xor
    }

    package var offset: Int
    package var bytes: [UInt8]
    package var operation: Operation

    package init(offset: Int, bytes: [UInt8], operation: Operation = .overwrite) {
        self.offset = offset
        self.bytes = bytes
        self.operation = operation
    }

    /// The bytes of the file it touches.
    package var range: Range<Int> {
        let (end, overflow) = offset.addingReportingOverflow(bytes.count)
        return offset..<(overflow ? Int.max : end)
    }

    package var description: String { describe(past: false) }

    package func describe(past: Bool) -> String {
        let count = bytes.count == 1 ? "1 byte" : "\(bytes.count) bytes"
        let verb: String
        switch operation {
        case .xor: verb = past ? "flipped bits in" : "flip bits in"
        case .overwrite where bytes.allSatisfy { $0 == 0 }: verb = past ? "zeroed" : "zero"
        case .overwrite: verb = past ? "overwrote" : "overwrite"
        }
        return "\(verb) \(count) at offset \(offset)"
    }
}
