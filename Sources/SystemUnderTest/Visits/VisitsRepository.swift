/// The repository the visits use cases see. It passes errors up unchanged: the data
/// source already made them typed and presentable.
public protocol VisitsRepositoryProtocol: Sendable {
    func fetchAllVisits() async throws -> [Visit]
    func addVisit(_ visit: Visit) async throws
    func removeVisit(id: Int64) async throws
}

public struct VisitsRepository: VisitsRepositoryProtocol {
    let dataSource: any VisitsDataSourceProtocol

    public init(dataSource: any VisitsDataSourceProtocol) {
        self.dataSource = dataSource
    }

    public func fetchAllVisits() async throws -> [Visit] { try await dataSource.fetchAll() }
    public func addVisit(_ visit: Visit) async throws { try await dataSource.add(visit) }
    public func removeVisit(id: Int64) async throws { try await dataSource.remove(id: id) }
}
