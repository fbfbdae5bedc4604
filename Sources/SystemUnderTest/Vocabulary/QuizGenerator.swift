/// Makes a quiz from a set's words. The view model holds one of these: the hardened
/// ``QuizGenerator``, or (legacy variant) the old session that traps.
public protocol QuizGenerating: Sendable {
    /// A quiz over `words`, offering `optionCount` choices per question where the
    /// words allow it, in an order decided by `seed`.
    func makeQuiz(setID: Int64, words: [VocabularyWord], optionCount: Int, seed: UInt64) throws(VocabularyError) -> Quiz
}

/// Seed 000's quiz generation, hardened: it checks the words before it starts.
///
/// - fewer than ``minimumWords`` words: ``VocabularyError/insufficientVocabularyWords(required:available:)``;
/// - fewer words than the options setting: as many choices as there are words, and
///   the quiz says so (``Quiz/isAdjusted``) for the screen to tell the user;
/// - a setting below 2 choices is raised to 2 (one right answer, one wrong);
/// - at most ``maximumQuestions`` questions, one per word.
///
/// Every collection access is bounded by construction; the same words and seed give
/// the same quiz.
public struct QuizGenerator: QuizGenerating {
    public static let minimumWords = 2
    public static let maximumQuestions = 10

    public init() {}

    public func makeQuiz(setID: Int64, words: [VocabularyWord], optionCount requested: Int, seed: UInt64) throws(VocabularyError) -> Quiz {
        guard words.count >= Self.minimumWords else {
            throw .insufficientVocabularyWords(required: Self.minimumWords, available: words.count)
        }
        let optionCount = min(max(Self.minimumWords, requested), words.count)
        var random = QuizRandom(seed: seed)
        let asked = random.shuffle(words).prefix(Self.maximumQuestions)
        let questions = asked.map { word in
            let distractors = random.shuffle(words.filter { $0.id != word.id }).prefix(optionCount - 1)
            let options = random.shuffle([word] + distractors).map { QuizOption(wordID: $0.id, text: $0.meaning) }
            return QuizQuestion(wordID: word.id, prompt: word.term, options: options)
        }
        return Quiz(setID: setID, questions: questions, optionCount: optionCount,
                    requestedOptionCount: max(Self.minimumWords, requested))
    }
}
