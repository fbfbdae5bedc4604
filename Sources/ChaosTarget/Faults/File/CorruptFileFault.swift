/// Damages a file's bytes while the app is down.
///
/// ```yaml
/// - fault: corrupt-file
///   file: store            # logical file name; default store
///   how: garbage-header    # garbage-header | flip-bytes | zero-pages | truncate | zero-length | header-only
///   bytes: 64              # flip-bytes only: how many bytes; default 64, at most 4096
///   scope: database        # file (default): the bytes of the file as it is; database: the
///                          # store as SQLite reads it (its WAL folded in first)
/// ```
///
/// `scope: file` damages the file's bytes as they are. An app in WAL mode that has not
/// checkpointed keeps its newest pages in the `-wal`: damage to the store then lands
/// where SQLite does not read (and the case ends `inconclusive`, saying so). `scope:
/// database` (for `file: store` only) first checkpoints the WAL into the store through
/// SQLite's plain VFS — what SQLite itself does when the last connection closes — so
/// the damage reaches the pages SQLite reads, wherever they lived.
///
/// What each method decides, from the case seed:
/// - `garbage-header`: the first 100 bytes (SQLite's database header) become random
///   bytes; SQLite then reports "file is not a database".
/// - `flip-bytes`: XOR `bytes` distinct random bytes with random non-zero masks, past
///   the first page (past the 100-byte header for a file of one page or less) so that
///   the damage is in the b-tree pages, found by an integrity check rather than at open.
/// - `zero-pages`: zero 1 to 3 whole 4096-byte pages, never the first (which holds
///   the header and the schema root); a database of a single page is left alone. The
///   plain file of a target without SQLite may lose any page, and one of a page or
///   less is zeroed whole, its length kept: the file of NUL bytes a crash leaves.
/// - `truncate`: cut to a length between 10% and 60% of the size, rounded down to a
///   whole page, but at least one page, as a lost tail of pages looks. A file under two
///   pages is cut at a byte in that range instead.
/// - `zero-length`, `header-only`: cut to nothing, or to the 100-byte header: shapes
///   SQLite opens without complaint, as a new and empty database.
/// A plan never reaches past the end of the file.
package struct CorruptFileFault: FileFault {
    package enum Method: String, Sendable, CaseIterable {
        case garbageHeader = "garbage-header"
        case flipBytes = "flip-bytes"
        case zeroPages = "zero-pages"
        case truncate
        /// Cut to nothing: the file is there, empty.
        case zeroLength = "zero-length"
        /// Cut back to the 100-byte database header: SQLite reads no page, so no table.
        case headerOnly = "header-only"
    }

    package enum Scope: String, Sendable, CaseIterable {
        case file, database
    }

    package static let kind = "corrupt-file"
    package static let summary = "Damage a file's bytes while the app is down: garbage header, flipped bytes, zeroed pages, truncation."
    package static let example = """
        - fault: corrupt-file
          file: store
          how: garbage-header
        """
    package static let parameterKeys = ["file", "how", "bytes", "scope"]

    package static let headerSize = 100
    package static let defaultFlipCount = 64
    package static let flipCountRange = 1...4096

    package var file: String
    package var how: Method
    /// flip-bytes: how many bytes to flip.
    package var flipCount: Int
    package var scope: Scope

    package init(file: String = "store", how: Method, flipCount: Int = CorruptFileFault.defaultFlipCount, scope: Scope = .file) {
        self.file = file
        self.how = how
        self.flipCount = flipCount
        self.scope = scope
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        file = try LogicalFileName.read(parameters)
        let method = try parameters.requiredOneOf("how", Method.allCases.map(\.rawValue))
        how = Method(rawValue: method) ?? .garbageHeader
        if parameters.contains("bytes"), how != .flipBytes {
            throw parameters.error("'bytes' of \(parameters.context) only applies to how: flip-bytes", at: "bytes")
        }
        flipCount = try parameters.int("bytes", in: Self.flipCountRange, default: Self.defaultFlipCount)
        scope = Scope(rawValue: try parameters.oneOf("scope", Scope.allCases.map(\.rawValue)) ?? "file") ?? .file
        if scope == .database, file != LogicalFileName.defaultName {
            throw parameters.error("'scope: database' damages the store as SQLite reads it: it needs 'file: store', found '\(file)'", at: "scope")
        }
    }

    package var label: String {
        var detail = how == .flipBytes && flipCount != Self.defaultFlipCount ? "\(how.rawValue), \(flipCount) bytes" : how.rawValue
        if scope == .database { detail += ", the database" }
        return "\(Self.kind) \(file) (\(detail))"
    }

    package var preparation: FileDamagePreparation { scope == .database ? .checkpointWAL : .none }

    package func plan(fileSize: Int, format: FileFormat, rng: inout SplitMix64) -> FileDamagePlan {
        guard format == .plain, how == .zeroPages, fileSize > 0 else { return plan(fileSize: fileSize, rng: &rng) }
        let page = FileDamagePlan.pageSize
        let pages = (fileSize + page - 1) / page
        let chosen = pages == 1 ? [0] : Self.distinct(rng.nextInt(in: 1...min(3, pages)), from: 0..<pages, rng: &rng)
        return .edits(chosen.map { ByteEdit(offset: $0 * page, bytes: [UInt8](repeating: 0, count: min(page, fileSize - $0 * page))) })
    }

    package func plan(fileSize: Int, rng: inout SplitMix64) -> FileDamagePlan {
        let size = max(0, fileSize)
        let page = FileDamagePlan.pageSize
        switch how {
        case .garbageHeader:
            let count = min(Self.headerSize, size)
            return .edits(count > 0 ? [ByteEdit(offset: 0, bytes: rng.nextBytes(count))] : [])

        case .flipBytes:
            let start = size > page ? page : (size > Self.headerSize ? Self.headerSize : 0)
            let offsets = Self.distinct(min(flipCount, size - start), from: start..<size, rng: &rng)
            return .edits(offsets.map { ByteEdit(offset: $0, bytes: [UInt8(rng.nextInt(in: 1...255))], operation: .xor) })

        case .zeroPages:
            let pages = size / page
            guard pages >= 2 else { return .edits([]) }
            let count = rng.nextInt(in: 1...min(3, pages - 1))
            let chosen = Self.distinct(count, from: 1..<pages, rng: &rng)
            return .edits(chosen.map { ByteEdit(offset: $0 * page, bytes: [UInt8](repeating: 0, count: page)) })

        case .zeroLength:
            return .truncate(to: 0)

        case .headerOnly:
            return .truncate(to: min(Self.headerSize, size))

        case .truncate:
            let low = size / 10
            let high = size / 10 * 6
            let cut = rng.nextInt(in: low...max(low, high))
            guard size >= 2 * page else { return .truncate(to: cut) }
            return .truncate(to: max(page, cut / page * page))
        }
    }

    /// `count` distinct values of `range`, sorted, drawn from `rng`.
    static func distinct(_ count: Int, from range: Range<Int>, rng: inout SplitMix64) -> [Int] {
        let wanted = min(max(0, count), range.count)
        guard wanted > 0 else { return [] }
        if range.count <= 4 * wanted {
            // Dense: a partial Fisher-Yates shuffle of the whole range.
            var values = Array(range)
            for index in 0..<wanted {
                let other = index + rng.nextInt(below: values.count - index)
                values.swapAt(index, other)
            }
            return values.prefix(wanted).sorted()
        }
        // Sparse: rejection; at most a quarter of the range is taken, so a draw is new
        // at least three times in four.
        var chosen = Set<Int>()
        while chosen.count < wanted {
            chosen.insert(range.lowerBound + rng.nextInt(below: range.count))
        }
        return chosen.sorted()
    }
}

extension CorruptFileFault: HuntedFault {
    package static let huntGroup = HuntGroup.fileDamage
    package static let huntWeight = 6
    /// A damage's size is what it is: fewer flipped bytes is another damage, not a simpler one.
    package static let numbersShrink = false
    /// Every way, in a fixed order (the draws of a seed must not move when a method is added).
    static let huntMethods: [Method] = [.garbageHeader, .flipBytes, .zeroPages, .truncate, .zeroLength, .headerOnly]

    /// A method; flipped bytes as the storage catalog flips them: enough to reach the
    /// pages SQLite checks. A few bits flipped inside a row's text are a change no app can
    /// tell from an edit without checksums of its own (a hunt found one in Sync's notes).
    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        let how = draws.pick(huntMethods)
        return [HuntKey("how", .string(how.rawValue))] + (how == .flipBytes ? [HuntKey("bytes", .int(1024))] : [])
    }
}
