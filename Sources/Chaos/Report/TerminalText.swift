/// Text from a scenario or a worker, made safe for a terminal: control characters (an
/// ESC that would start a colour or move the cursor, a BEL) are shown in caret
/// notation (`^[`, `^G`), as `cat -v` shows them; new lines and tabs stay.
package enum TerminalText {
    package static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                cleaned.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x7F: cleaned.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F: cleaned.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            default:
                cleaned.append("^")
                cleaned.append(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            }
        }
        return String(cleaned)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        default: false
        }
    }
}
