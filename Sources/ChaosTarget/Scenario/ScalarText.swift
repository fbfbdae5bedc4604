/// Small text checks shared by the scalar parsers (durations, percentages, values).
extension Character {
    package var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
