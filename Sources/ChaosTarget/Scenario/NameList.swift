/// Names for a message ("it has: a, b, c"): all of them when they are few, else the
/// first ones and how many more. A target may declare thousands of names; an error
/// that quotes its declaration stays a line a person reads.
package enum NameList {
    package static func text(_ names: [String], limit: Int = 40) -> String {
        guard names.count > limit else { return names.joined(separator: ", ") }
        return names.prefix(limit).joined(separator: ", ") + " … and \(names.count - limit) more"
    }
}
