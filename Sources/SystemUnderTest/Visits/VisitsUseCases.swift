/// The visits use cases: thin, `async throws`, one job each.
public struct FetchVisitsUseCase: Sendable {
    let repository: any VisitsRepositoryProtocol
    public init(repository: any VisitsRepositoryProtocol) { self.repository = repository }
    public func execute() async throws -> [Visit] { try await repository.fetchAllVisits() }
}

public struct AddVisitUseCase: Sendable {
    let repository: any VisitsRepositoryProtocol
    public init(repository: any VisitsRepositoryProtocol) { self.repository = repository }
    public func execute(_ visit: Visit) async throws { try await repository.addVisit(visit) }
}

public struct RemoveVisitUseCase: Sendable {
    let repository: any VisitsRepositoryProtocol
    public init(repository: any VisitsRepositoryProtocol) { self.repository = repository }
    public func execute(id: Int64) async throws { try await repository.removeVisit(id: id) }
}
