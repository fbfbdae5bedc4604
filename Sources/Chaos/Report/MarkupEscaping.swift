import ChaosTarget

/// Escaping for the HTML and JUnit writers: every string that came from a
/// scenario or a worker goes through here before it meets markup.
enum MarkupEscaping {
    /// Escapes `&`, `<`, `>`, `"` and `'`, safe both in text and inside a
    /// quoted attribute, and replaces characters XML 1.0 forbids (NUL, most
    /// C0 controls, U+FFFE/U+FFFF) with U+FFFD so that a worker's raw bytes
    /// cannot make the file unreadable.
    ///
    /// `preservingLineBreaks` is for XML attributes, where a parser folds a
    /// literal tab or newline into a space: those are written as `&#9;`,
    /// `&#10;`, `&#13;` instead. In text, `\r` is always written as `&#13;`
    /// for the same reason (a parser turns a literal CR LF into LF).
    static func escape(_ text: String, preservingLineBreaks: Bool = false) -> String {
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\r": escaped += "&#13;"
            case "\n" where preservingLineBreaks: escaped += "&#10;"
            case "\t" where preservingLineBreaks: escaped += "&#9;"
            case _ where isAllowedInXML(scalar): escaped.unicodeScalars.append(scalar)
            default: escaped.unicodeScalars.append(replacement)
            }
        }
        return escaped
    }

    /// XML 1.0's `Char` production (section 2.2). Swift strings hold no
    /// lone surrogates, so only the controls and U+FFFE/U+FFFF are left out.
    static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF: true
        default: false
        }
    }

    static let replacement: Unicode.Scalar = "\u{FFFD}"
}
