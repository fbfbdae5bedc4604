// LEGACY — seed 000's QuizSession.generateQuiz() and QuizView before the fix, kept on
// purpose (see LegacyStore.swift for why this folder exists). It trusts the set to
// hold more words than the options setting: with fewer, picking the distractors
// indexes past the end of the array; with none, the view's `questions.first!` finds
// nothing. Both trap. Its randomness is seeded, like the hardened generator's, so a
// legacy run replays.

/// The old quiz session: no validation, unchecked indexing, a force unwrap.
struct LegacyQuizSession: QuizGenerating {
    func makeQuiz(setID: Int64, words: [VocabularyWord], optionCount numberOfOptions: Int, seed: UInt64) -> Quiz {
        var random = QuizRandom(seed: seed)
        let shuffledWords = random.shuffle(words)
        var questions: [QuizQuestion] = []
        for word in shuffledWords.prefix(QuizGenerator.maximumQuestions) {
            let otherWords = random.shuffle(shuffledWords.filter { $0.id != word.id })
            var options = [QuizOption(wordID: word.id, text: word.meaning)]
            for index in 0..<(numberOfOptions - 1) {
                let distractor = otherWords[index]
                options.append(QuizOption(wordID: distractor.id, text: distractor.meaning))
            }
            questions.append(QuizQuestion(wordID: word.id, prompt: word.term, options: random.shuffle(options)))
        }
        // The old QuizView: `let question = quizSession.questions.first!`.
        let firstQuestion = questions.first!
        _ = firstQuestion.prompt
        return Quiz(setID: setID, questions: questions, optionCount: numberOfOptions, requestedOptionCount: numberOfOptions)
    }
}
