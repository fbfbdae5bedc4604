import FaultPoints

/// The fault points of the visits data source, declared beside the code that hits them.
public extension FaultPoint {
    static let visitsFetch = FaultPoint("store/visits/fetch")
    static let visitsSave = FaultPoint("store/visits/save")
    static let visitsDelete = FaultPoint("store/visits/delete")
}
