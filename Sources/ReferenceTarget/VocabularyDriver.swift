import ChaosTarget
import Foundation
import SystemUnderTest

/// The vocabulary and quiz feature (seed 000) under the built-in target.
///
/// Sets and words get their ids from a counter file, like favourites, so a record
/// lost in a recovery is never replaced by a new one under the same key. Every quiz
/// is shuffled from its own sub-seed of the case seed (`quiz/1`, `quiz/2`, …): the
/// same seed asks the same questions.
@MainActor
final class VocabularyDriver: FeatureDriver {
    static let actions: [TargetAction<SystemUnderTestTarget>] = [
        action("vocabulary.create-set", [.text("name").required]) { driver, call, app in try await driver.createSet(call, app: app) },
        action("vocabulary.add-words", [.int("count", in: 1...10_000), .textOrNumber("set").required]) { driver, call, app in
            try await driver.addWords(call, app: app)
        },
        action("vocabulary.list") { _, _, app in
            let library = app.vocabulary.library
            let ok = await library.load()
            var outcome = libraryResult(ok: ok, library)
            outcome.value = .int(library.sets.count)
            outcome.isRead = ok
            return outcome
        },
        action("quiz.generate", [.int("options", in: 0...100), .textOrNumber("set").required]) { driver, call, app in
            try await driver.generateQuiz(call, app: app)
        },
        action("quiz.answer", [.flag("correct")]) { _, call, app in try await answer(call, app: app) },
        action("quiz.retry") { _, _, app in
            let quiz = app.vocabulary.quiz
            let ok = await quiz.retry()
            var outcome = quizResult(ok: ok, quiz)
            outcome.isRead = ok && quiz.errorMessage == nil
            return outcome
        },
        action("vocabulary.open-help") { driver, _, app in
            switch app.vocabulary.helpLink(driver.helpSite) {
            case let .success(url): return ActionResult(ok: true, value: .string(url.absoluteString))
            case let .failure(error): return ActionResult(ok: false, userMessage: error.userMessage, error: "invalid configuration: \(error)")
            }
        },
    ]
    static let probes: [TargetProbe<SystemUnderTestTarget>] = [
        probe("quiz.state") { _, app in .string(app.vocabulary.quiz.state.name) },
        probe("quiz.options") { _, app in app.vocabulary.quiz.quiz.map { .int($0.optionCount) } ?? .null },
        probe("quiz.notice") { _, app in app.vocabulary.quiz.notice.map(ScenarioValue.string) ?? .null },
        probe("quiz.error") { _, app in app.vocabulary.quiz.errorMessage.map(ScenarioValue.string) ?? .null },
        probe("quiz.question") { _, app in app.vocabulary.quiz.currentQuestion.map { .string($0.prompt) } ?? .null },
        probe("quiz.attempts") { _, app in
            let library = app.vocabulary.library
            guard await library.load() else { return .null }
            return .int(library.sets.reduce(0) { $0 + $1.statistics.attempts })
        },
        probe("vocabulary.sets") { _, app in
            let library = app.vocabulary.library
            guard await library.load() else { return .null }
            return .int(library.sets.count)
        },
        probe("vocabulary.words") { _, app in
            let library = app.vocabulary.library
            guard await library.load() else { return .null }
            return .int(library.sets.reduce(0) { $0 + $1.wordCount })
        },
    ]
    private let counter: RecordCounter
    /// The case seed, from ``configure(_:)``.
    private var seed: UInt64 = 0
    private var quizzesGenerated = 0

    init(dataDirectory: URL) {
        counter = RecordCounter(file: dataDirectory.appendingPathComponent("chaos-next-vocabulary-id"))
    }

    func configure(_ context: TargetContext) {
        seed = context.seed
        helpSite = context.options["help-site"] ?? HelpLink.defaultSite
    }

    /// The build's help site (`--option help-site=…`).
    private var helpSite = HelpLink.defaultSite

    private func createSet(_ call: ActionCall, app: ChaosApp) async throws -> ActionResult {
        let name = try call.string("name")
        guard let id = counter.next(1).first else { throw TargetError("no record id left") }
        let key = "vocabularySet:\(id)"
        call.attempt(key)
        let saved = await app.vocabulary.library.createSet(VocabularySet(id: id, name: name))
        if saved && Self.isKept(app) { call.acknowledge(key) }
        var outcome = Self.libraryResult(ok: saved, app.vocabulary.library)
        outcome.value = .int(Int(id))
        return outcome
    }

    private func addWords(_ call: ActionCall, app: ChaosApp) async throws -> ActionResult {
        let library = app.vocabulary.library
        let count = try call.int("count", default: 1, in: 1...10_000)
        let setID: Int64
        switch try await Self.resolveSet(call.arguments, library) {
        case let .found(id): setID = id
        case let .failed(outcome): return outcome
        }
        let words = counter.next(count).map { VocabularyWord.numbered($0, in: setID) }
        let keys = words.map { "vocabularyWord:\($0.id)" }
        for key in keys { call.attempt(key) }
        let saved = await library.addWords(words)
        if saved && Self.isKept(app) { keys.forEach(call.acknowledge) }
        return Self.libraryResult(ok: saved, library)
    }

    private func generateQuiz(_ call: ActionCall, app: ChaosApp) async throws -> ActionResult {
        let quiz = app.vocabulary.quiz
        let options = try call.int("options", default: 4, in: 0...100)
        let setID: Int64
        switch try await Self.resolveSet(call.arguments, app.vocabulary.library) {
        case let .found(id): setID = id
        case let .failed(outcome): return outcome
        }
        quizzesGenerated += 1
        let quizSeed = SplitMix64.subseed(seed, "quiz/\(quizzesGenerated)")
        let ok = await quiz.generate(setID: setID, optionCount: options, seed: quizSeed)
        var outcome = Self.quizResult(ok: ok, quiz)
        outcome.value = quiz.quiz.map { .int($0.optionCount) } ?? .null
        outcome.isRead = ok
        return outcome
    }

    private static func answer(_ call: ActionCall, app: ChaosApp) async throws -> ActionResult {
        let quiz = app.vocabulary.quiz
        let correct = try call.bool("correct", default: true)
        guard let question = quiz.currentQuestion, let setID = quiz.quiz?.setID,
              let option = correct ? question.correctOption : question.options.first(where: { !question.isCorrect($0) })
        else {
            return ActionResult(ok: false, error: "no quiz question on screen (quiz state \(quiz.state.name))")
        }
        let key = "quizStatistics:\(setID)"
        call.attempt(key)
        let counted = await quiz.answer(option)
        if counted && isKept(app) { call.acknowledge(key) }
        return quizResult(ok: counted, quiz)
    }

    func surfaced(app: ChaosApp) -> Surfaced {
        let shown = app.vocabulary.surfaced
        return Surfaced(Severity(rawValue: shown.severity.rawValue) ?? .none, shown.message)
    }

    /// A save counts as acknowledged only when the app says it is kept: in in-memory
    /// mode it has told the user that changes will not survive.
    private static func isKept(_ app: ChaosApp) -> Bool {
        app.store?.isPersistent == true
    }

    private enum SetLookup {
        case found(Int64)
        case failed(ActionResult)
    }

    /// The set a scenario names, by id (`set: 3`) or by name (`set: Animals`), found as
    /// a user would: in the list of sets.
    private static func resolveSet(_ arguments: [String: ScenarioValue], _ library: VocabularyViewModel) async throws -> SetLookup {
        switch arguments["set"] {
        case let .int(id)?: return .found(Int64(id))
        case let .string(name)?:
            guard await library.load() else { return .failed(libraryResult(ok: false, library)) }
            guard let set = library.set(named: name) else {
                return .failed(ActionResult(ok: false, error: "no vocabulary set named '\(name)' in the list"))
            }
            return .found(set.id)
        case nil: throw TargetError("'set' is required: a set's name or id")
        case let other?: throw TargetError("'set' must be a set's name or id, found \(other)")
        }
    }

    private static func libraryResult(ok: Bool, _ library: VocabularyViewModel) -> ActionResult {
        ActionResult(ok: ok, userMessage: ok ? nil : library.errorMessage,
                     error: ok ? nil : "vocabulary list state \(library.state.rawValue)")
    }

    private static func quizResult(ok: Bool, _ quiz: QuizViewModel) -> ActionResult {
        ActionResult(ok: ok, userMessage: ok ? nil : quiz.errorMessage, error: ok ? nil : "quiz state \(quiz.state.name)")
    }
}
