import Foundation

/// Names a trap's frames once per distinct frame: workers record raw addresses
/// (`SWIFT_BACKTRACE=…,symbolicate=off,images=mentioned`: 0.03 s, where a debug binary's
/// full symbolication in the worker took 0.35–1 s), and the controller names them with
/// the toolchain's `llvm-symbolizer` and `swift-demangle`, keeping every answer by image
/// build id and address. A trap whose frames were seen before — a hunt's hundredth trap
/// at the same site — costs nothing more, and the report still shows the whole
/// symbolicated backtrace, in the runtime's own layout
/// (`2 [ra] 0x… TagsTarget.rename(to:) in chaos-test-tags at /…/TagsTarget.swift:46:33`),
/// so the trap's site is read from it as before (``TrapParser``).
///
/// Crash-reporting services symbolicate each distinct stack once and cache it by build
/// id and address; this is that, in-process. Where the tools are not found, workers
/// symbolicate as they always did (``isAvailable``).
package final class TrapSymbolizer: @unchecked Sendable {
    package static let shared = TrapSymbolizer()

    private let lock = NSLock()
    /// Named frames by image build id (or path) and address offset: innermost first
    /// (inlined frames, then the function the address is in).
    private var named: [String: [UInt64: [NamedFrame]]] = [:]
    private var demangled: [String: String] = [:]
    /// The named backtrace (from the crash banner on) of the first trap with each key
    /// (the trapping instruction and its callers), by executable path: what a later trap
    /// with that key shows without being unwound again (``KnownTrapSites``).
    private var firstTraps: [String: [UInt64: String]] = [:]
    /// Executable paths as the kernel gives them (symbolic links resolved).
    private var resolved: [String: String] = [:]
    /// How many times a tool ran: none for frames named before.
    private(set) var toolRuns = 0
    let tools: (symbolizer: String, demangler: String)?

    struct NamedFrame: Equatable {
        var function: String
        /// `/path/File.swift:LINE:COLUMN`, nil when unknown (`??:0:0`).
        var location: String?
    }

    init(tools: (symbolizer: String, demangler: String)? = TrapSymbolizer.findTools()) {
        self.tools = tools
    }

    /// Whether traps can be named here: workers then leave their frames raw.
    package var isAvailable: Bool { tools != nil }

    /// The toolchain's `llvm-symbolizer` and `swift-demangle`, beside the `swift` on PATH
    /// (`CHAOS_LLVM_SYMBOLIZER` names a symbolizer elsewhere); nil when either is missing.
    static func findTools(environment: [String: String] = ProcessInfo.processInfo.environment) -> (symbolizer: String, demangler: String)? {
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let bin = swift.resolvingSymlinksInPath().deletingLastPathComponent()
            let symbolizer = environment["CHAOS_LLVM_SYMBOLIZER"] ?? bin.appendingPathComponent("llvm-symbolizer").path
            let demangler = bin.appendingPathComponent("swift-demangle").path
            if FileManager.default.isExecutableFile(atPath: symbolizer), FileManager.default.isExecutableFile(atPath: demangler) {
                return (symbolizer, demangler)
            }
        }
        return nil
    }

    // MARK: - Raw backtraces

    /// One raw frame: `2 [ra] 0x00005640b335cd77`.
    struct RawFrame: Equatable {
        var line: Substring
        var index: String
        var flags: String
        var address: UInt64
        /// A return address: the call is the byte before it.
        var isReturnAddress: Bool { flags.contains("[ra]") }
    }

    /// One image of the `Images` section: `0x…–0x… BUILDID NAME PATH`.
    struct Image: Equatable {
        var start: UInt64
        var end: UInt64
        var buildID: String
        var name: String
        var path: String
    }

    static func rawFrame(_ line: Substring) -> RawFrame? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2, let last = words.last, last.hasPrefix("0x"), let address = UInt64(last.dropFirst(2), radix: 16),
              Int(words[0]) != nil, words.dropFirst().dropLast().allSatisfy({ $0.hasPrefix("[") && $0.hasSuffix("]") }) else { return nil }
        return RawFrame(line: line, index: String(words[0]), flags: words.dropFirst().dropLast().joined(separator: " "), address: address)
    }

    static func image(_ line: Substring) -> Image? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 4 else { return nil }
        let range = words[0].split(whereSeparator: { $0 == "–" || $0 == "-" })
        guard range.count == 2, range[0].hasPrefix("0x"), range[1].hasPrefix("0x"),
              let start = UInt64(range[0].dropFirst(2), radix: 16), let end = UInt64(range[1].dropFirst(2), radix: 16),
              let path = words.last, path.hasPrefix("/") else { return nil }
        return Image(start: start, end: end, buildID: String(words[1]), name: String(words[words.count - 2]), path: String(path))
    }

    // MARK: - Naming

    /// `stderr` with its raw frames named; as it is when it has none, or they cannot be.
    package func symbolicate(_ stderr: String) -> String {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
        let frames = lines.compactMap(Self.rawFrame)
        let images = lines.compactMap(Self.image)
        guard tools != nil, !frames.isEmpty, !images.isEmpty else { return stderr }
        // What each frame asks of which image: its offset there.
        var wanted: [String: (image: Image, offsets: Set<UInt64>)] = [:]
        var placed: [(RawFrame, Image, UInt64)?] = []
        for frame in frames {
            guard let image = images.first(where: { $0.start <= frame.address && frame.address < $0.end }) else {
                placed.append(nil)
                continue
            }
            let offset = frame.address - image.start - (frame.isReturnAddress && frame.address > image.start ? 1 : 0)
            placed.append((frame, image, offset))
            wanted[Self.key(image), default: (image, [])].offsets.insert(offset)
        }
        name(wanted)
        var replacement: [Substring: [String]] = [:]
        lock.lock()
        for case let (frame, image, offset)? in placed {
            guard let chain = named[Self.key(image)]?[offset], !chain.isEmpty else { continue }
            replacement[frame.line] = chain.enumerated().map { depth, named in
                let flags = depth < chain.count - 1 ? "[inlined]" : frame.flags
                let function = demangled[named.function] ?? named.function
                let at = named.location.map { " at \($0)" } ?? ""
                return "\(frame.index) \(flags) 0x\(String(frame.address, radix: 16)) \(function) in \(image.name)\(at)"
            }
        }
        lock.unlock()
        var result: [String] = []
        for line in lines { result += replacement[line] ?? [String(line)] }
        let named = result.joined(separator: "\n")
        // A worker that wrote its trap's key: the named backtrace is held for the next
        // trap with that key (``KnownTrapSites``).
        if let line = lines.lazy.compactMap({ KnownTrapSites.parse($0) }).first, !line.known, !replacement.isEmpty,
           let banner = TrapParser.backtrace(in: named) {
            lock.lock()
            if firstTraps[line.executable]?[line.key] == nil { firstTraps[line.executable, default: [:]][line.key] = banner }
            lock.unlock()
        }
        return named
    }

    /// `CHAOS_KNOWN_TRAP_SITES` for a worker of `command`: the keys of the traps of its
    /// executable whose backtrace is held (maybe none: its traps then say their keys); nil
    /// when the command's traps are not backtraced or not named here.
    package func knownSites(for command: WorkerCommand) -> String? {
        guard isAvailable, command.environment["SWIFT_BACKTRACE"]?.hasPrefix("enable=yes") == true else { return nil }
        lock.lock()
        defer { lock.unlock() }
        let path = resolved[command.executable] ?? URL(fileURLWithPath: command.executable).resolvingSymlinksInPath().path
        resolved[command.executable] = path
        return (firstTraps[path] ?? [:]).keys.sorted().prefix(512).map { String($0, radix: 16) }.joined(separator: ",")
    }

    /// A worker's stderr without its trap-key line; for a trap with a known key, the
    /// backtrace held for that key in its place, said to be the first one's.
    package func expandKnownTrap(_ stderr: String) -> String {
        var lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { KnownTrapSites.parse($0[...]) != nil }),
              let line = KnownTrapSites.parse(lines[index][...]) else { return stderr }
        guard line.known else { return stderr }
        lines.remove(at: index)
        lock.lock()
        let held = firstTraps[line.executable]?[line.key]
        lock.unlock()
        guard let held else {
            return (lines + ["(no backtrace: the worker trapped where this run named a trap before, whose frames are not held)"])
                .joined(separator: "\n")
        }
        var backtrace = held.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        backtrace.insert("(the frames of the first trap at this place in this run: a trap here again is not unwound again)",
                         at: min(1, backtrace.count))
        return (lines + backtrace).joined(separator: "\n")
    }

    static func key(_ image: Image) -> String {
        image.buildID.count >= 8 && image.buildID.allSatisfy(\.isHexDigit) ? image.buildID : image.path
    }

    /// Names the offsets not named yet: one `llvm-symbolizer` run an image, one
    /// `swift-demangle` run for the new names.
    private func name(_ wanted: [String: (image: Image, offsets: Set<UInt64>)]) {
        guard let tools else { return }
        lock.lock()
        let missing = wanted.compactMap { key, entry -> (String, Image, [UInt64])? in
            let new = entry.offsets.filter { named[key]?[$0] == nil }.sorted()
            return new.isEmpty ? nil : (key, entry.image, new)
        }
        lock.unlock()
        for (key, image, offsets) in missing {
            let input = offsets.map { "0x" + String($0, radix: 16) }
            let output = Self.run(tools.symbolizer, ["--obj=\(image.path)", "--functions=linkage", "--inlines"], input: input)
            lock.lock(); toolRuns += 1; lock.unlock()
            let chains = Self.chains(output, count: offsets.count)
            lock.lock()
            for (offset, chain) in zip(offsets, chains) { named[key, default: [:]][offset] = chain }
            lock.unlock()
        }
        lock.lock()
        let mangled = Set(named.values.flatMap { $0.values.flatMap { $0.map(\.function) } }).filter { $0.hasPrefix("$s") && demangled[$0] == nil }.sorted()
        lock.unlock()
        guard !mangled.isEmpty else { return }
        let plain = Self.run(tools.demangler, ["--simplified"], input: mangled)
        lock.lock()
        toolRuns += 1
        if plain.count == mangled.count { for (symbol, text) in zip(mangled, plain) { demangled[symbol] = text } }
        lock.unlock()
    }

    /// `llvm-symbolizer`'s answer, one block an address (function and location lines,
    /// inlined frames first), blocks ended by an empty line.
    static func chains(_ output: [String], count: Int) -> [[NamedFrame]] {
        var chains: [[NamedFrame]] = []
        var current: [NamedFrame] = []
        var pending: String?
        for line in output {
            if line.isEmpty {
                chains.append(current)
                current = []
                pending = nil
                continue
            }
            if let function = pending {
                let location = line.hasPrefix("??") ? nil : line
                current.append(NamedFrame(function: function == "??" ? "???" : function, location: location))
                pending = nil
            } else {
                pending = line
            }
        }
        if !current.isEmpty { chains.append(current) }
        return chains.count == count ? chains : Array(repeating: [], count: count)
    }

    /// Runs a tool with `input` as its lines; its output lines, or none when it fails.
    static func run(_ executable: String, _ arguments: [String], input: [String]) -> [String] {
        guard let child = try? ChildProcess(executable: executable, arguments: arguments,
                                            environment: ProcessInfo.processInfo.environment,
                                            stderrFile: URL(fileURLWithPath: "/dev/null")) else { return [] }
        for line in input where !child.writeLine(line) { break }
        child.closeInput()
        var output: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        reading: while true {
            switch child.readLine(deadline: deadline) {
            case let .line(line): output.append(line)
            case .endOfFile: break reading
            case .invalidUTF8: continue
            case .timedOut, .tooLong:
                child.killTree()
                break reading
            }
        }
        _ = child.waitForExit(deadline: ContinuousClock.now + .seconds(5))
        return output
    }
}
