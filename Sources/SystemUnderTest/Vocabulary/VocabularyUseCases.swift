/// The vocabulary and quiz use cases (seed 000): thin, `async throws`, one job each.
public struct FetchVocabularyOverviewUseCase: Sendable {
    let repository: any VocabularyRepositoryProtocol
    public init(repository: any VocabularyRepositoryProtocol) { self.repository = repository }
    public func execute() async throws -> [VocabularySetOverview] { try await repository.overview() }
}

public struct CreateVocabularySetUseCase: Sendable {
    let repository: any VocabularyRepositoryProtocol
    public init(repository: any VocabularyRepositoryProtocol) { self.repository = repository }
    public func execute(_ set: VocabularySet) async throws { try await repository.createSet(set) }
}

public struct AddVocabularyWordsUseCase: Sendable {
    let repository: any VocabularyRepositoryProtocol
    public init(repository: any VocabularyRepositoryProtocol) { self.repository = repository }
    public func execute(_ words: [VocabularyWord]) async throws { try await repository.addWords(words) }
}

/// Reads a set's words and builds a quiz from them; the generator validates the count.
public struct GenerateQuizUseCase: Sendable {
    let repository: any VocabularyRepositoryProtocol
    let generator: any QuizGenerating
    public init(repository: any VocabularyRepositoryProtocol, generator: any QuizGenerating) {
        self.repository = repository
        self.generator = generator
    }

    public func execute(setID: Int64, optionCount: Int, seed: UInt64) async throws -> Quiz {
        let words = try await repository.words(inSet: setID)
        return try generator.makeQuiz(setID: setID, words: words, optionCount: optionCount, seed: seed)
    }
}

public struct RecordQuizAnswerUseCase: Sendable {
    let repository: any VocabularyRepositoryProtocol
    public init(repository: any VocabularyRepositoryProtocol) { self.repository = repository }
    public func execute(setID: Int64, correct: Bool) async throws -> QuizStatistics {
        try await repository.recordAnswer(setID: setID, correct: correct)
    }
}
