/// A quiz over one vocabulary set: each question shows a word and offers
/// ``optionCount`` meanings, exactly one of them the word's own.
public struct Quiz: Sendable, Equatable {
    public var setID: Int64
    public var questions: [QuizQuestion]
    /// How many choices each question offers.
    public var optionCount: Int
    /// How many the user's setting asked for; more than ``optionCount`` when the set
    /// has too few words, in which case the user is told.
    public var requestedOptionCount: Int

    public init(setID: Int64, questions: [QuizQuestion], optionCount: Int, requestedOptionCount: Int) {
        self.setID = setID
        self.questions = questions
        self.optionCount = optionCount
        self.requestedOptionCount = requestedOptionCount
    }

    /// True when the number of choices was reduced to fit the words available.
    public var isAdjusted: Bool { optionCount < requestedOptionCount }

    /// The question at `index`, or nil past either end (never a trap).
    public func question(at index: Int) -> QuizQuestion? {
        questions.indices.contains(index) ? questions[index] : nil
    }
}

/// One question: the word to translate and the meanings to choose from.
public struct QuizQuestion: Sendable, Equatable {
    /// The word asked about.
    public var wordID: Int64
    public var prompt: String
    public var options: [QuizOption]

    public init(wordID: Int64, prompt: String, options: [QuizOption]) {
        self.wordID = wordID
        self.prompt = prompt
        self.options = options
    }

    /// Whether choosing `option` answers the question right. Two words may share a
    /// meaning, so the choice is judged by the word it came from, not its text.
    public func isCorrect(_ option: QuizOption) -> Bool {
        option.wordID == wordID
    }

    /// The right choice, if present (always, for a quiz the generator made).
    public var correctOption: QuizOption? { options.first(where: isCorrect) }
}

/// One choice of a question: a meaning, and the word it belongs to.
public struct QuizOption: Sendable, Equatable {
    public var wordID: Int64
    public var text: String

    public init(wordID: Int64, text: String) {
        self.wordID = wordID
        self.text = text
    }
}
