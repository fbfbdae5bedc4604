import ChaosTarget

/// What one schedule's run reached, as a set of small features read from its report's
/// values (never its sentences): a guided hunt keeps a schedule that reached something
/// no earlier run did (``HuntCorpus``), and mutates it, as AFL keeps an input that took
/// a new branch. The features stand for paths through the app's error handling, which
/// the target exposes no branch coverage of: the fault points its code reached, which
/// of its declared files each seam saw it open, write, sync, rename or remove under the
/// faults armed at that moment and what each call answered, the errnos and SQLite codes
/// it met, the kinds of errors its actions answered, what it logged, the mode it
/// reported at each launch, how each step went, and how the case ended.
///
/// ```
/// call(sqlite write store → SQLITE_IOERR_WRITE after io-error@store)
/// code(SQLITE_IOERR_WRITE)  appError(SQLite error 10: disk I/O error)
/// log(error "Save failed: SQLite error 10: disk I/O error")
/// mode(in-memory)  outcome(launch: ok)  trap(LegacyStore.swift:18)  failed(no-silent-loss)
/// ```
struct RunSignature: Equatable {
    enum Feature: Hashable, Sendable {
        /// A fault point the app's code hit (counted while the guided hunt runs).
        case point(String)
        /// A seam call at one step: which seam, what, on which declared file (its logical
        /// name), what it answered, and one fault armed then (its kind, `@file` for one
        /// aimed at a declared file; empty when none was) — one feature for each fault
        /// armed, not one for each set of them: a call under two faults is new when it is
        /// new under either, and the corpus grows with what the app did, not with how many
        /// ways faults can be stacked. Not how many times: a read asked again while the app
        /// recovers makes as many calls as the time it took allows, and what joins the
        /// corpus must not depend on the machine or `-j`.
        case call(seam: SeamCall.Seam, op: StorageCall.Operation, file: String, result: String, after: String)
        /// An errno or SQLite result code a call answered, wherever it came.
        case code(String)
        /// The kind of an error an action of the app answered (``StepRecord/appErrors``).
        case appError(String)
        /// A record the app logged: its level, its message with paths cut to file names
        /// and numbers made `N` (``TrapErrorKind``): the same record, whatever it counted.
        case log(level: String, message: String)
        /// The storage mode a launch reported.
        case mode(String)
        /// How a step of one kind went: `launch`, an action's name, a fault's kind…
        case outcome(step: String, StepOutcome)
        /// A fault that fired.
        case fired(String)
        /// The case ended in a trap at this site (or with this signal, when no site is named).
        case trap(String)
        /// The app hung: at a launch (nil) or at an action.
        case hang(during: String?)
        /// The worker ended by itself (`exited(1)`).
        case exit(termination: String)
        /// An expectation of the oracle that failed.
        case failed(String)
    }

    var features: Set<Feature>

    init(features: Set<Feature>) {
        self.features = features
    }

    /// The signature of `report`, the case of a schedule of `steps`, on a target that
    /// declares `files` (logical name → path under its data folder).
    init(report: CaseReport, steps: [WrittenStep], files: [String: String] = [:]) {
        var features = Set((report.pointsReached ?? []).map(Feature.point))
        let armed = Self.armed(along: steps)
        let names = DeclaredFileNames(files)
        for record in report.steps {
            let position = record.index - 1
            let written = steps.indices.contains(position) ? steps[position] : nil
            let tags = steps.indices.contains(position) ? armed[position] : armed.last ?? []
            for call in record.calls ?? [] where call.result != SeamCall.dropped {
                for fault in tags.isEmpty ? [""] : tags {
                    features.insert(.call(seam: call.seam, op: call.op, file: names.name(of: call.file), result: call.result, after: fault))
                }
                if call.failed { features.insert(.code(call.result)) }
            }
            for error in record.appErrors ?? [] { features.insert(.appError(error)) }
            if let mode = record.mode { features.insert(.mode(mode)) }
            features.insert(.outcome(step: written.map(Self.kind) ?? "relaunch", record.outcome))
        }
        for entry in report.logs ?? [] {
            features.insert(.log(level: entry.level, message: TrapErrorKind.of(entry.message)))
        }
        for injection in report.injections { features.insert(.fired(injection.kind)) }
        if let trap = report.trap { features.insert(.trap(trap.site ?? trap.signalName)) }
        for expectation in report.expectations where !expectation.passed {
            features.insert(.failed(expectation.kind))
            switch expectation.end {
            case let .hung(hang)?: features.insert(.hang(during: hang.during))
            case .caseTimedOut?: features.insert(.hang(during: nil))
            case let .exited(termination, _)?: features.insert(.exit(termination: termination))
            case let .terminatedBySystem(file, _)?: features.insert(.exit(termination: "0xdead10cc on \(file)"))
            case .stayedAfterStop?, nil: break
            }
        }
        self.features = features
    }

    /// A step's kind, as its outcome is told apart: `launch`, `stop`, an action's name,
    /// a fault's kind, `clear`, `power-loss`.
    static func kind(of step: WrittenStep) -> String {
        switch step {
        case .launch: "launch"
        case .stop: "stop"
        case .kill: "kill"
        case let .action(name, _, _): name
        case let .fault(kind, _): kind
        case .clear: "clear"
        case .powerLoss: "power-loss"
        case .checkpoint: "checkpoint"
        case .wait: "wait"
        case .suspend: "suspend"
        case .resume: "resume"
        }
    }

    /// The faults armed at each step, the step's own included, each as its kind and, for
    /// one aimed at a declared file, `@` and the file (`io-error@backup`): a fault stands
    /// until it is cleared; a cut, and damage done to a file, until the launch after them
    /// has run — what the app met when it came back.
    static func armed(along steps: [WrittenStep]) -> [[String]] {
        var standing: [(kind: String, tag: String)] = []
        var untilLaunch: [String] = []
        var armed: [[String]] = []
        for step in steps {
            switch step {
            case let .fault(kind, keys) where FaultCatalog.kind(named: kind)?.stands ?? true: standing.append((kind, tag(kind, keys)))
            case let .fault(kind, keys): untilLaunch.append(tag(kind, keys))
            case .powerLoss: untilLaunch.append("power-loss")
            case let .clear(scope): standing.removeAll { scope == "all" || $0.kind == scope }
            default: break
            }
            armed.append(Array(Set(standing.map(\.tag) + untilLaunch)).sorted())
            if step == .launch { untilLaunch = [] }
        }
        return armed
    }

    /// A fault as the calls under it are tagged: its kind, and the declared file it aims at.
    static func tag(_ kind: String, _ keys: [HuntKey]) -> String {
        guard let file = keys.first(where: { $0.key == "file" })?.value.stringValue else { return kind }
        return kind + "@" + file
    }
}

/// The logical names of a target's declared files, by which a call the seams saw is told
/// apart: a path belongs to the longest declared path it names or extends
/// (``DeclaredFileOwnership``), so `app.sqlite-wal` is the store's and `backups/3.sqlite`
/// the backups'. A path no declared one covers is kept with its numbers made `N`, one
/// outside the data folder is `elsewhere`, SQLite's temporary files `temporary`.
struct DeclaredFileNames {
    private var byPath: [String: String] = [:]

    init(_ files: [String: String]) {
        for (name, path) in files.sorted(by: { $0.key < $1.key }) {
            var trimmed = Substring(path)
            while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
            while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            if byPath[String(trimmed)] == nil { byPath[String(trimmed)] = name }
        }
    }

    func name(of file: String) -> String {
        if file.isEmpty { return "temporary" }
        if let owner = DeclaredFileOwnership.owner(of: file, among: Array(byPath.keys)), let name = byPath[owner] { return name }
        return file.hasPrefix("/") ? "elsewhere" : TrapErrorKind.numbersMasked(file)
    }
}
