import Foundation
import FaultPoints
import Testing
@testable import SystemUnderTest

/// Seed 000's quiz screen on the real store: short sets show a clear error or a
/// notice instead of crashing, answers are counted, a failed save can be retried
/// (a bounded number of times).
extension SystemUnderTestSuite {
    @Suite struct VocabularyQuizViewModel {
        /// A running hardened app with set 1 holding `words` words.
        @MainActor
        func app(words: Int, in configuration: StoreConfiguration) async -> ChaosApp {
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            _ = await app.vocabulary.library.createSet(VocabularySet(id: 1, name: "Set"))
            if words > 0 {
                _ = await app.vocabulary.library.addWords((0..<Int64(words)).map { VocabularyWord.numbered(10 + $0, in: 1) })
            }
            return app
        }

        @Test @MainActor func aNewQuizScreenIsIdleWithNoQuestion() async throws {
            let directory = try TemporaryAppDirectory()
            let app = await app(words: 0, in: directory.configuration)
            defer { app.stop() }
            let quiz = app.vocabulary.quiz
            #expect(quiz.state == .idle)
            #expect(quiz.currentQuestion == nil)
            #expect(quiz.surfaced.severity == .none)
            #expect(await quiz.answer(QuizOption(wordID: 1, text: "x")) == false)
        }

        @Test(arguments: [0, 1]) @MainActor func tooFewWordsShowTheClearErrorNotACrash(words: Int) async throws {
            let directory = try TemporaryAppDirectory()
            let app = await app(words: words, in: directory.configuration)
            defer { app.stop() }
            let quiz = app.vocabulary.quiz
            #expect(await quiz.generate(setID: 1, optionCount: 4, seed: 1) == false)
            let expected = VocabularyError.insufficientVocabularyWords(required: 2, available: words)
            #expect(quiz.state == .error(message: expected.userMessage))
            #expect(quiz.recoverySuggestion == expected.recoverySuggestion)
            #expect(quiz.currentQuestion == nil)
            #expect(quiz.quiz == nil)
            #expect(quiz.surfaced.severity == .error)
        }

        @Test @MainActor func fewerWordsThanOptionsGiveFewerChoicesAndTellTheUser() async throws {
            let directory = try TemporaryAppDirectory()
            let app = await app(words: 3, in: directory.configuration)
            defer { app.stop() }
            let quiz = app.vocabulary.quiz
            #expect(await quiz.generate(setID: 1, optionCount: 6, seed: 1))
            #expect(quiz.quiz?.optionCount == 3)
            #expect(quiz.currentQuestion?.options.count == 3)
            #expect(quiz.notice == "This set has only 3 words, so each question offers 3 choices instead of 6. Add more words to get more choices.")
            #expect(quiz.surfaced.severity == .warning)
            // Enough words next time: the notice goes.
            _ = await app.vocabulary.library.addWords((20..<Int64(23)).map { VocabularyWord.numbered($0, in: 1) })
            #expect(await quiz.generate(setID: 1, optionCount: 6, seed: 2))
            #expect(quiz.notice == nil)
            #expect(quiz.quiz?.optionCount == 6)
        }

        @Test @MainActor func answersAreCountedAndTheQuizFinishes() async throws {
            let directory = try TemporaryAppDirectory()
            let app = await app(words: 2, in: directory.configuration)
            defer { app.stop() }
            let quiz = app.vocabulary.quiz
            #expect(await quiz.generate(setID: 1, optionCount: 2, seed: 4))
            let first = try #require(quiz.currentQuestion)
            #expect(await quiz.answer(try #require(first.correctOption)))
            #expect(quiz.statistics == QuizStatistics(setID: 1, attempts: 1, correct: 1))
            let second = try #require(quiz.currentQuestion)
            #expect(second.wordID != first.wordID)
            #expect(await quiz.answer(try #require(second.options.first { !second.isCorrect($0) })))
            #expect(quiz.state == .finished(correct: 1, total: 2))
            #expect(quiz.currentQuestion == nil)
            #expect(quiz.statistics == QuizStatistics(setID: 1, attempts: 2, correct: 1))
            #expect(try await VocabularyDataSource(store: try #require(app.store)).fetchStatistics(setID: 1)
                == QuizStatistics(setID: 1, attempts: 2, correct: 1))
        }

        @Test @MainActor func aFailedAnswerSaveIsRetriedAtMostThreeTimes() async throws {
            let directory = try TemporaryAppDirectory()
            let app = await app(words: 4, in: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            let quiz = app.vocabulary.quiz
            #expect(await quiz.generate(setID: 1, optionCount: 4, seed: 1))
            let question = try #require(quiz.currentQuestion)
            FaultRegistry.shared.arm(.quizStatisticsSave, always: .fail(message: "no space"))
            #expect(await quiz.answer(try #require(question.correctOption)) == false)
            #expect(quiz.errorMessage == "Failed to save changes. Please try again.")
            #expect(quiz.canRetry)
            for _ in 0..<quiz.maxRetries { #expect(await quiz.retry() == false) }
            #expect(quiz.canRetry == false)
            #expect(await quiz.retry() == false)
            #expect(quiz.errorMessage == PresentedError.retriesExhaustedMessage)
            #expect(FaultRegistry.shared.hitCount(FaultPoint.quizStatisticsSave.name) == 1 + quiz.maxRetries)
        }

        @Test @MainActor func aRetryAfterTheFaultClearsCountsTheAnswerOnceAndGoesOn() async throws {
            let directory = try TemporaryAppDirectory()
            let app = await app(words: 4, in: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            let quiz = app.vocabulary.quiz
            #expect(await quiz.generate(setID: 1, optionCount: 4, seed: 1))
            let question = try #require(quiz.currentQuestion)
            FaultRegistry.shared.arm(.quizStatisticsSave, always: .fail(message: "busy"))
            #expect(await quiz.answer(try #require(question.correctOption)) == false)
            FaultRegistry.shared.disarm(FaultPoint.quizStatisticsSave.name)
            #expect(await quiz.retry())
            #expect(quiz.state.name == "ready")
            #expect(quiz.currentIndex == 1)
            #expect(quiz.statistics == QuizStatistics(setID: 1, attempts: 1, correct: 1))
        }

        @Test @MainActor func theSameSeedAsksTheSameQuestionsOnTheStore() async throws {
            let directory = try TemporaryAppDirectory()
            let app = await app(words: 12, in: directory.configuration)
            defer { app.stop() }
            let quiz = app.vocabulary.quiz
            #expect(await quiz.generate(setID: 1, optionCount: 4, seed: 77))
            let first = quiz.quiz
            #expect(await quiz.generate(setID: 1, optionCount: 4, seed: 77))
            #expect(quiz.quiz == first)
            #expect(await quiz.generate(setID: 1, optionCount: 4, seed: 78))
            #expect(quiz.quiz != first)
        }
    }
}
