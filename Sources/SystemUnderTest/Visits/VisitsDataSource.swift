import FaultPoints
import GRDB

/// The visits data layer's contract. Every method throws ``DatabaseError``.
public protocol VisitsDataSourceProtocol: Sendable {
    func fetchAll() async throws -> [Visit]
    func add(_ visit: Visit) async throws
    func remove(id: Int64) async throws
}

/// The hardened data source: every failure becomes a typed, user-presentable error.
public struct VisitsDataSource: VisitsDataSourceProtocol {
    let store: AppStore

    public init(store: AppStore) {
        self.store = store
    }

    public func fetchAll() async throws -> [Visit] {
        do {
            try await FaultPoint.visitsFetch.hit()
            return try await store.writer.read { try Visit.order(Column("id")).fetchAll($0) }
        } catch {
            throw DatabaseError.fetchFailed(operation: "visits", underlying: DatabaseError.describe(error))
        }
    }

    public func add(_ visit: Visit) async throws {
        do {
            try await FaultPoint.visitsSave.hit()
            try await store.writer.write { try visit.upsert($0) }
        } catch {
            throw writeError(error) { .saveFailed(underlying: $0) }
        }
        store.didWrite()
    }

    public func remove(id: Int64) async throws {
        do {
            try await FaultPoint.visitsDelete.hit()
            _ = try await store.writer.write { try Visit.deleteOne($0, id: id) }
        } catch {
            throw writeError(error) { .deleteFailed(operation: "visit", underlying: $0) }
        }
        store.didWrite()
    }

    /// A refused write says why: read-only storage, or a full device (the save
    /// failure, whose suggestion is to free up space).
    private func writeError(_ error: any Error, otherwise: (String) -> DatabaseError) -> DatabaseError {
        let detail = DatabaseError.describe(error)
        guard DatabaseError.isReadOnly(error) else { return otherwise(detail) }
        return store.health.storageFull ? .saveFailed(underlying: detail) : .readOnly(underlying: detail)
    }
}
