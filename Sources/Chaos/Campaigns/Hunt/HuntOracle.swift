import ChaosTarget
import Foundation

/// The generic oracle every schedule of a hunt is judged by — the storage catalog's:
/// no trap (nor a hang, nor an unexpected exit); no acknowledged record lost without the
/// user being told (a write cut before it answered may or may not be there); the store
/// intact, or no longer used; and, from the last launch after every fault is cleared, a
/// read within 5 s, with no launch or action of the case slower than that.
package enum HuntOracle {
    package static let expectations = ["no-trap", "no-silent-loss", "integrity: ok-if-used", "recovered-within: 5s", liveAfterHealing, "damaged-kept", "claims-hold"]
    static let liveAfterHealing = "live-after-healing"


    /// The expectations of a schedule: all of them, but `no-silent-loss` for one that
    /// deletes or garbles a journal (`wal`, `journal`): the commits in it are gone with
    /// it for any app, as the storage catalog's `check-wal-lost` says; and
    /// `recovered-within` only for one that ends with the closing read it is timed by (a
    /// shrunk schedule may end where its failure shows); one that does not is held to
    /// `responsive-within` instead, the bound on every launch and action that
    /// `recovered-within` also holds.
    static func expectations(for steps: [WrittenStep]) -> [String] {
        let losesJournal = steps.contains { step in
            guard case let .fault(kind, keys) = step, (FaultCatalog.kind(named: kind) as? any FileFault.Type)?.losesWhatTheFileHeld == true,
                  case let .string(file)? = keys.first(where: { $0.key == "file" })?.value else { return false }
            return journalFiles.contains(file)
        }
        let timesRecovery = steps.last == HuntSchedule.closingRead
        let kept = expectations.filter { ($0 != "no-silent-loss" || !losesJournal) && (![recoveredWithin, liveAfterHealing].contains($0) || timesRecovery) }
        // Without the read, no launch or action may still be slower than recovery may take.
        return timesRecovery ? kept : kept + [responsiveWithin]
    }

    static let responsiveWithin = "responsive-within: 5s"

    static let recoveredWithin = "recovered-within: 5s"
    /// The bound ``recoveredWithin`` and ``responsiveWithin`` say.
    static let recoveryBound: Duration = .seconds(5)

    /// The logical names of SQLite's journals.
    static let journalFiles: Set<String> = ["wal", "journal"]

    /// How a case failed, the same for every schedule that fails for the same cause: what
    /// a finding is grouped by. ``core`` is what failed — a trap's site and the kind of
    /// error it reports, a hang and the fault that started it, the expectations that
    /// failed — and what shrinking must keep; ``cause`` is, for a failed expectation, the
    /// faults that were at work, which shrinking narrows down to those it needs.
    package struct Failure: Sendable, Hashable, Comparable, Codable {
        package enum Kind: String, Sendable, Codable {
            case trap, hang, exit, expectations
        }

        package var kind: Kind
        /// `trap at TemplateStartup.swift:13: Unresolved error SQLite error 13: database or
        /// disk is full`, `hang after a network fault on postgres`, `no-silent-loss`.
        package var core: String
        /// The faults at work, each said once: `a power cut`, `file damage to store`; empty
        /// for a trap or a hang, whose core says it all.
        package var causes: [String]
        /// `a power cut and file damage to store`; nil when there are none.
        package var cause: String? { FaultsAtWork.phrase(causes) }

        /// A hang: whether it struck a launch (rather than an action). Not part of what a
        /// finding is grouped by — one hang is one finding whatever it struck — but what
        /// shrinking keeps: a hunt's bound on one step also catches a launch that answers
        /// after a library's 10 s connect timeout, and a hang at an action must not shrink
        /// into that slower-but-answering launch.
        package var struckLaunch = false
        /// A hang or an exit that came only when Chaos relaunched the app after the steps
        /// to read what it kept (``HuntOracle/atTheRelaunch`` says so in ``core``).
        package var atRelaunch = false

        package init(kind: Kind, core: String, causes: [String] = [], struckLaunch: Bool = false, atRelaunch: Bool = false) {
            self.kind = kind
            self.core = core
            self.causes = causes
            self.struckLaunch = struckLaunch
            self.atRelaunch = atRelaunch
        }

        package static func == (lhs: Failure, rhs: Failure) -> Bool {
            lhs.kind == rhs.kind && lhs.core == rhs.core && lhs.causes == rhs.causes
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(core)
            hasher.combine(causes)
        }

        /// The whole failure, as reports and merges tell findings apart by it.
        package var signature: String { cause.map { "\(core) after \($0)" } ?? core }

        package static func < (lhs: Failure, rhs: Failure) -> Bool { lhs.signature < rhs.signature }

        /// A trap, a hang or an exit: a failure whatever the schedule's faults are doing at its end.
        var isTrapOrHang: Bool { kind != .expectations }

        /// The app failed at one of the schedule's own steps: what its faults were doing
        /// after it does not matter. A hang or an exit only when Chaos relaunched the app to
        /// read what it kept is no such failure: the faults still standing then are part of it.
        var isAtAStep: Bool { kind == .trap || (isTrapOrHang && !atRelaunch) }

        /// Whether `other` fails the same way, as shrinking judges a candidate.
        func sameCore(_ other: Failure?) -> Bool {
            other.map { $0.kind == kind && $0.core == core && (kind != .hang || $0.struckLaunch == struckLaunch) } ?? false
        }

        /// A kebab-case name for the finding's file: `trap-template-startup-13-database-or-disk-is-full`,
        /// `hang-network-postgres`, `fails-no-silent-loss-power-cut`.
        package var name: String {
            switch kind {
            case .trap:
                let (site, error) = Self.split(core)
                let last = error.split(separator: ":").last(where: { $0.contains(where: \.isLetter) }).map(String.init) ?? error
                return (["trap"] + Self.words(site).filter { $0 != "swift" && $0 != "at" && $0 != "trap" } + Self.words(last).prefix(5)).joined(separator: "-")
            case .hang, .exit:
                let words = Self.words(core).filter { !Self.smallWords.contains($0) }
                return words.prefix(5).joined(separator: "-")
            case .expectations:
                let causes = cause.map { Self.words($0).filter { !Self.smallWords.contains($0) } } ?? []
                return (["fails"] + Self.words(core).prefix(6) + causes.prefix(4)).joined(separator: "-")
            }
        }

        /// `trap at X.swift:18: message` → (`trap at X.swift:18`, `message`).
        static func split(_ core: String) -> (site: String, error: String) {
            guard core.hasPrefix("trap at "), let colon = core.range(of: ": ", range: core.index(core.startIndex, offsetBy: 8)..<core.endIndex) else {
                return (core, "")
            }
            return (String(core[..<colon.lowerBound]), String(core[colon.upperBound...]))
        }

        static let smallWords: Set<String> = ["a", "an", "the", "on", "to", "of", "after", "and", "fault", "with", "no", "was"]

        /// The lowercase ASCII words of `text`, split at punctuation and at camel case.
        static func words(_ text: String) -> [String] {
            var words: [String] = []
            var current = ""
            var previous: Character?
            for character in text {
                let boundary = character.isUppercase && (previous?.isLowercase ?? false)
                if !character.isLetter && !character.isNumber || boundary {
                    if !current.isEmpty { words.append(current) }
                    current = ""
                }
                if character.isLetter || character.isNumber { current.append(contentsOf: character.lowercased()) }
                previous = character
            }
            if !current.isEmpty { words.append(current) }
            return words.map { $0.filter(\.isASCII) }.filter { !$0.isEmpty }
        }
    }

    /// How `report` failed the oracle; nil when it passed, or proves nothing either way
    /// (inconclusive, skipped, errored: a fault that reached nothing, a case that did not
    /// apply, Chaos's own failure — none of them the app's). `steps` are the schedule's
    /// (what each fault acted on), `remotes` the target's.
    package static func failure(of report: CaseReport, steps: [WrittenStep] = [], remotes: [String] = []) -> Failure? {
        guard report.verdict == .deviated else { return nil }
        if let trap = report.trap {
            let error = TrapErrorKind.of(trap.message ?? trap.signalName)
            if let site = trap.site { return Failure(kind: .trap, core: "trap at \(site)" + (error.isEmpty ? "" : ": \(error)")) }
            return Failure(kind: .trap, core: "trap: " + (error.isEmpty ? trap.signalName : error))
        }
        // A final snapshot Chaos could not take is a gap in the evidence, not a loss.
        let failed = report.expectations.filter { !$0.passed && !$0.lacksFinalSnapshot }
        let atWork = FaultsAtWork(report: report, steps: steps, remotes: remotes)
        if let noTrap = failed.first(where: { $0.kind == ExpectationKeyword.noTrap.rawValue }) {
            let stopped = report.steps.last?.index ?? 0
            // At a step, or when Chaos relaunched the app after the steps to read what it kept.
            let atAStep = report.steps.last.map { [.trapped, .error, .timedOut].contains($0.outcome) } ?? false
            let when = atAStep ? "" : atTheRelaunch
            if noTrap.end?.isHang == true {
                // A hang by the fault that started it, whichever launch, action or read it struck.
                let at = atAStep ? stopped : stopped + 1
                let blamed = if let culprit = atWork.culpritOfHang(at: at) {
                    "after \(culprit.phrase)"
                } else if let cleared = atWork.clearedCulpritOfHang(at: at) {
                    "after \(cleared.phrase) was cleared"
                } else {
                    "with no fault at work"
                }
                let waiting = atAStep && steps.indices.contains(stopped - 1) && steps[stopped - 1] == .launch
                return Failure(kind: .hang, core: "hang " + blamed + when, struckLaunch: waiting, atRelaunch: !atAStep)
            }
            // An exit: how it ended, not its timings.
            return Failure(kind: .exit, core: "exit: " + TrapErrorKind.of(noTrap.end?.sentenceWithoutTheStep ?? "ended") + when,
                           causes: atWork.causes.map(\.phrase), atRelaunch: !atAStep)
        }
        guard !failed.isEmpty else { return nil }
        return Failure(kind: .expectations, core: failed.map(\.kind).sorted().joined(separator: ", "), causes: atWork.causes.map(\.phrase))
    }

    /// How a hang or an exit says it came when Chaos relaunched the app to read its data.
    static let atTheRelaunch = " when relaunched to read what it kept"
}
