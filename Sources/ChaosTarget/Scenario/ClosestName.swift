/// "Did you mean …?" for unknown names: the candidate at the smallest edit distance,
/// offered only when it is reasonably close.
///
/// Distance is optimal string alignment (Levenshtein plus adjacent transposition, so
/// `fualt` is one edit from `fault`), case-insensitive. "Close" means at most a third
/// of the longer name's length, and at least one edit: `corupt-file` suggests
/// `corrupt-file`, `xyz` suggests nothing.
package enum ClosestName {
    package static func suggestion(for name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        guard !target.isEmpty, target.count <= 200 else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(target, other)
            let allowed = max(1, max(target.count, other.count) / 3)
            guard distance <= allowed else { continue }
            if best.map({ distance < $0.distance }) ?? true {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Optimal string alignment distance between two scalar arrays.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var previousPrevious = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            previousPrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
