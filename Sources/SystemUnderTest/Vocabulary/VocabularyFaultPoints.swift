import FaultPoints

/// The fault points of the vocabulary data source, declared beside the code that hits them.
public extension FaultPoint {
    static let vocabularyFetch = FaultPoint("store/vocabulary/fetch")
    static let vocabularySave = FaultPoint("store/vocabulary/save")
    static let quizStatisticsSave = FaultPoint("store/quiz/statistics/save")
}
