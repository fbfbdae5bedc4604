/// The quiz screen (seed 000, REQ-2 and REQ-3): it generates a quiz for a set, shows
/// one question at a time, and counts every answer in the set's statistics.
///
/// A set with too few words shows `.error` with a message that says what to do, not a
/// crash; a set with fewer words than the options setting gets a quiz with fewer
/// choices and a ``notice`` that says so. There is no fallback quiz: the current
/// question is nil when there is none, never a made-up one. A failed operation can be
/// retried, at most ``maxRetries`` times in a row.
@MainActor
public final class QuizViewModel: RetryingScreen {
    public enum State: Sendable, Equatable {
        case idle
        case ready(Quiz)
        case finished(correct: Int, total: Int)
        case error(message: String)

        /// The state's wire name, for probes.
        public var name: String {
            switch self {
            case .idle: "idle"
            case .ready: "ready"
            case .finished: "finished"
            case .error: "error"
            }
        }
    }

    /// The operation a retry repeats.
    enum Operation {
        case generate(setID: Int64, optionCount: Int, seed: UInt64)
        case answer(QuizOption)
    }

    public private(set) var state: State = .idle
    /// Said to the user beside the quiz (fewer choices than the setting asks), nil when nothing.
    public private(set) var notice: String?
    public private(set) var recoverySuggestion: String?
    /// The statistics of the quiz's set after the last recorded answer.
    public private(set) var statistics: QuizStatistics?
    public var retryCount: Int { retries.count }
    public var maxRetries: Int { retries.limit }

    /// The quiz in progress, kept while an error is shown so a retry can go on with it.
    public private(set) var quiz: Quiz?
    public private(set) var currentIndex = 0
    private var correctAnswers = 0
    var retries: BoundedRetry<Operation>

    private let generateQuiz: GenerateQuizUseCase
    private let recordAnswer: RecordQuizAnswerUseCase

    public init(repository: any VocabularyRepositoryProtocol, generator: any QuizGenerating, maxRetries: Int = 3) {
        generateQuiz = GenerateQuizUseCase(repository: repository, generator: generator)
        recordAnswer = RecordQuizAnswerUseCase(repository: repository)
        retries = BoundedRetry(limit: maxRetries)
    }

    /// The question on screen, or nil when there is none (never a placeholder).
    public var currentQuestion: QuizQuestion? {
        guard case .ready = state else { return nil }
        return quiz?.question(at: currentIndex)
    }

    /// The error shown to the user, nil when none.
    public var errorMessage: String? {
        if case let .error(message) = state { return message }
        return nil
    }

    /// Whether the retry button is offered.
    public var canRetry: Bool { errorMessage != nil && retries.isOffered }

    /// What the user sees right now: an error beats the notice.
    public var surfaced: (severity: Severity, message: String?) {
        if let errorMessage { return (.error, errorMessage) }
        if let notice { return (.warning, notice) }
        return (.none, nil)
    }

    /// Starts a quiz over the set's words. Returns true when one is ready.
    @discardableResult
    public func generate(setID: Int64, optionCount: Int, seed: UInt64) async -> Bool {
        await perform(.generate(setID: setID, optionCount: optionCount, seed: seed))
    }

    /// Answers the current question with `option`. Returns true when the answer was
    /// counted in the statistics; the quiz then moves to the next question.
    @discardableResult
    public func answer(_ option: QuizOption) async -> Bool {
        guard currentQuestion != nil else { return false }
        return await perform(.answer(option))
    }

    /// Repeats the failed operation, at most ``maxRetries`` times in a row.
    @discardableResult
    public func retry() async -> Bool {
        await retryFailedOperation()
    }

    var isShowingError: Bool { errorMessage != nil }

    func showRetriesExhausted() {
        state = .error(message: PresentedError.retriesExhaustedMessage)
        recoverySuggestion = nil
    }

    func perform(_ operation: Operation) async -> Bool {
        do {
            switch operation {
            case let .generate(setID, optionCount, seed):
                let quiz = try await generateQuiz.execute(setID: setID, optionCount: optionCount, seed: seed)
                self.quiz = quiz
                currentIndex = 0
                correctAnswers = 0
                notice = quiz.isAdjusted ? Self.fewerChoicesNotice(quiz) : nil
                state = .ready(quiz)
            case let .answer(option):
                guard let quiz, let question = quiz.question(at: currentIndex) else { return false }
                let correct = question.isCorrect(option)
                statistics = try await recordAnswer.execute(setID: quiz.setID, correct: correct)
                if correct { correctAnswers += 1 }
                currentIndex += 1
                state = currentIndex < quiz.questions.count
                    ? .ready(quiz) : .finished(correct: correctAnswers, total: quiz.questions.count)
            }
        } catch {
            retries.recordFailure(operation)
            let presented = PresentedError(error)
            state = .error(message: presented.message)
            recoverySuggestion = presented.suggestion
            if case .generate = operation { quiz = nil; notice = nil }
            return false
        }
        retries.recordSuccess()
        recoverySuggestion = nil
        return true
    }

    /// What the user is told when the set has fewer words than the options setting.
    static func fewerChoicesNotice(_ quiz: Quiz) -> String {
        "This set has only \(quiz.optionCount) words, so each question offers \(quiz.optionCount) choices "
            + "instead of \(quiz.requestedOptionCount). Add more words to get more choices."
    }
}
