import Foundation
import FaultPoints
import Testing
@testable import SystemUnderTest

/// Seed 000 on the shared store: sets, words and quiz statistics round-trip through
/// data source, repository and view models, survive a relaunch and a corrupted store,
/// and every failure reaches the screen in plain words.
extension SystemUnderTestSuite {
    @Suite struct VocabularyStore {
        /// Launches the hardened app, makes set 1 ("Animals") with `words` words (ids
        /// 101…), answers `answers` quiz questions (right, wrong, right, …), stops gracefully.
        @MainActor
        func seedVocabulary(words: Int, answers: Int, in configuration: StoreConfiguration) async throws {
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            let library = app.vocabulary.library
            #expect(await library.createSet(VocabularySet(id: 1, name: "Animals")))
            #expect(await library.addWords((0..<Int64(words)).map { VocabularyWord.numbered(101 + $0, in: 1) }))
            let quiz = app.vocabulary.quiz
            #expect(await quiz.generate(setID: 1, optionCount: 4, seed: 1))
            for index in 0..<answers {
                let question = try #require(quiz.currentQuestion)
                let option = try #require(index.isMultiple(of: 2)
                    ? question.correctOption : question.options.first { !question.isCorrect($0) })
                #expect(await quiz.answer(option))
            }
        }

        @Test @MainActor func setsWordsAndStatisticsRoundTripAcrossARelaunch() async throws {
            let directory = try TemporaryAppDirectory()
            try await seedVocabulary(words: 6, answers: 3, in: directory.configuration)

            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.health.mode == .persistent)
            let library = app.vocabulary.library
            #expect(await library.load())
            #expect(library.state == .okey)
            let overview = try #require(library.sets.first)
            #expect(library.sets.count == 1)
            #expect(overview.set == VocabularySet(id: 1, name: "Animals"))
            #expect(overview.wordCount == 6)
            #expect(overview.statistics == QuizStatistics(setID: 1, attempts: 3, correct: 2))
            #expect(library.set(named: "Animals")?.id == 1)
            #expect(library.set(named: "Plants") == nil)
            let words = try await VocabularyDataSource(store: try #require(app.store)).fetchWords(setID: 1)
            #expect(words == (0..<Int64(6)).map { VocabularyWord.numbered(101 + $0, in: 1) })
        }

        @Test @MainActor func statisticsArePreservedWhenTheStoreIsRestoredFromBackup() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedVocabulary(words: 5, answers: 4, in: configuration)
            try overwrite(configuration.storeURL, at: 0, count: 100)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.health.mode == .restoredFromBackup)
            #expect(app.health.launchDuration < .seconds(5))
            let library = app.vocabulary.library
            #expect(await library.load())
            #expect(library.sets.first?.wordCount == 5)
            #expect(library.sets.first?.statistics == QuizStatistics(setID: 1, attempts: 4, correct: 2))
            #expect(app.vocabulary.library.notice == LaunchMessages.restored)
        }

        @Test @MainActor func wordsForAMissingSetAreRefusedInPlainWords() async throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            let library = app.vocabulary.library
            #expect(await library.addWords([.numbered(1, in: 99)]) == false)
            #expect(library.state == .error)
            #expect(library.errorMessage == VocabularyError.setNotFound.userMessage)
            #expect(try await VocabularyDataSource(store: try #require(app.store)).fetchWords(setID: 99).isEmpty)
        }

        @Test @MainActor func aFailedFetchShowsTheSeedsMessage() async throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            FaultRegistry.shared.arm(.vocabularyFetch, always: .fail(message: "disk on fire"))
            #expect(await app.vocabulary.library.load() == false)
            #expect(app.vocabulary.library.errorMessage == "Unable to load your vocabulary sets. Please try again.")
            #expect(app.vocabulary.surfaced.severity == .error)
            #expect(await app.vocabulary.quiz.generate(setID: 1, optionCount: 4, seed: 1) == false)
            #expect(app.vocabulary.quiz.errorMessage == "Unable to load the words of this set. Please try again.")
        }

        @Test @MainActor func aFailedSaveIsShownNotSwallowed() async throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            FaultRegistry.shared.arm(.vocabularySave, always: .fail(message: "no space"))
            #expect(await app.vocabulary.library.createSet(VocabularySet(id: 1, name: "Animals")) == false)
            #expect(app.vocabulary.library.errorMessage == "Failed to save changes. Please try again.")
            FaultRegistry.shared.disarm(FaultPoint.vocabularySave.name)
            #expect(await app.vocabulary.library.load())
            #expect(app.vocabulary.library.sets.isEmpty)
            #expect(app.vocabulary.library.state == .empty)
        }

        @Test @MainActor func everyMessageOfTheFeatureIsPlainWords() {
            let messages = [
                VocabularyError.insufficientVocabularyWords(required: 2, available: 0),
                .insufficientVocabularyWords(required: 2, available: 1), .setNotFound,
            ].flatMap { [$0.userMessage, $0.recoverySuggestion] } + [
                QuizViewModel.fewerChoicesNotice(Quiz(setID: 1, questions: [], optionCount: 3, requestedOptionCount: 6)),
            ]
            let jargon = ["SQLITE", "errno", "nil", "Optional(", "Error", "GRDB", "Vocabulary"]
            for message in messages {
                #expect(!message.isEmpty)
                for word in jargon { #expect(!message.contains(word), "\(message)") }
            }
        }
    }
}
