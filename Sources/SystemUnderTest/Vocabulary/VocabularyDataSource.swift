import FaultPoints
import GRDB

/// The vocabulary data layer's contract. Every method throws ``DatabaseError``, or
/// ``VocabularyError`` when the request makes no sense for the data (no such set).
public protocol VocabularyDataSourceProtocol: Sendable {
    /// Every set with its word count and statistics, by id.
    func fetchOverview() async throws -> [VocabularySetOverview]
    func fetchWords(setID: Int64) async throws -> [VocabularyWord]
    func fetchStatistics(setID: Int64) async throws -> QuizStatistics
    func createSet(_ set: VocabularySet) async throws
    /// Adds the words in one transaction: all of them or none.
    func addWords(_ words: [VocabularyWord]) async throws
    /// Counts one answer in the set's statistics; returns the new totals.
    func recordAnswer(setID: Int64, correct: Bool) async throws -> QuizStatistics
}

/// The hardened data source: every failure becomes a typed, user-presentable error.
public struct VocabularyDataSource: VocabularyDataSourceProtocol {
    let store: AppStore

    public init(store: AppStore) {
        self.store = store
    }

    public func fetchOverview() async throws -> [VocabularySetOverview] {
        do {
            try await FaultPoint.vocabularyFetch.hit()
            return try await store.writer.read { db in
                let sets = try VocabularySet.order(Column("id")).fetchAll(db)
                let counts = try Row.fetchAll(db, sql: "SELECT setId, COUNT(*) AS n FROM vocabularyWord GROUP BY setId")
                    .reduce(into: [Int64: Int]()) { counts, row in
                        if let set: Int64 = row["setId"] { counts[set] = row["n"] ?? 0 }
                    }
                let statistics = try QuizStatistics.fetchAll(db)
                    .reduce(into: [Int64: QuizStatistics]()) { $0[$1.setID] = $1 }
                return sets.map { set in
                    VocabularySetOverview(set: set, wordCount: counts[set.id] ?? 0,
                                          statistics: statistics[set.id] ?? QuizStatistics(setID: set.id))
                }
            }
        } catch {
            throw DatabaseError.fetchFailed(operation: "your vocabulary sets", underlying: DatabaseError.describe(error))
        }
    }

    public func fetchWords(setID: Int64) async throws -> [VocabularyWord] {
        do {
            try await FaultPoint.vocabularyFetch.hit()
            return try await store.writer.read { db in
                try VocabularyWord.filter(Column("setId") == setID).order(Column("id")).fetchAll(db)
            }
        } catch {
            throw DatabaseError.fetchFailed(operation: "the words of this set", underlying: DatabaseError.describe(error))
        }
    }

    public func fetchStatistics(setID: Int64) async throws -> QuizStatistics {
        do {
            try await FaultPoint.vocabularyFetch.hit()
            return try await store.writer.read { try QuizStatistics.fetchOne($0, key: setID) } ?? QuizStatistics(setID: setID)
        } catch {
            throw DatabaseError.fetchFailed(operation: "your quiz results", underlying: DatabaseError.describe(error))
        }
    }

    public func createSet(_ set: VocabularySet) async throws {
        do {
            try await FaultPoint.vocabularySave.hit()
            try await store.writer.write { try set.upsert($0) }
        } catch {
            throw writeError(error)
        }
        store.didWrite()
    }

    public func addWords(_ words: [VocabularyWord]) async throws {
        let setIDs = Set(words.map(\.setID))
        do {
            try await FaultPoint.vocabularySave.hit()
            try await store.writer.write { db in
                for setID in setIDs where try !VocabularySet.exists(db, id: setID) {
                    throw VocabularyError.setNotFound
                }
                for word in words { try word.upsert(db) }
            }
        } catch let error as VocabularyError {
            throw error
        } catch {
            throw writeError(error)
        }
        store.didWrite()
    }

    public func recordAnswer(setID: Int64, correct: Bool) async throws -> QuizStatistics {
        let statistics: QuizStatistics
        do {
            try await FaultPoint.quizStatisticsSave.hit()
            statistics = try await store.writer.write { db in
                try db.execute(sql: """
                    INSERT INTO quizStatistics (id, attempts, correct) VALUES (?, 1, ?)
                    ON CONFLICT(id) DO UPDATE SET attempts = attempts + 1, correct = correct + excluded.correct
                    """, arguments: [setID, correct ? 1 : 0])
                return try QuizStatistics.fetchOne(db, key: setID) ?? QuizStatistics(setID: setID)
            }
        } catch {
            throw writeError(error)
        }
        store.didWrite()
        return statistics
    }

    /// A refused write says why: read-only storage, or (read-only because the device is
    /// full) the save failure that asks the user to free up space.
    private func writeError(_ error: any Error) -> DatabaseError {
        let detail = DatabaseError.describe(error)
        guard DatabaseError.isReadOnly(error) else { return .saveFailed(underlying: detail) }
        return store.health.storageFull ? .saveFailed(underlying: detail) : .readOnly(underlying: detail)
    }
}

/// Answers every call with a container error: used only when no store exists at all.
struct UnavailableVocabularyDataSource: VocabularyDataSourceProtocol {
    private var error: DatabaseError { .containerInitializationFailed(underlying: "no store") }
    func fetchOverview() async throws -> [VocabularySetOverview] { throw error }
    func fetchWords(setID: Int64) async throws -> [VocabularyWord] { throw error }
    func fetchStatistics(setID: Int64) async throws -> QuizStatistics { throw error }
    func createSet(_ set: VocabularySet) async throws { throw error }
    func addWords(_ words: [VocabularyWord]) async throws { throw error }
    func recordAnswer(setID: Int64, correct: Bool) async throws -> QuizStatistics { throw error }
}
