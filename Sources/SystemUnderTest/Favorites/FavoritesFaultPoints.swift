import FaultPoints

/// The fault points of the favourites data source, declared beside the code that hits them.
public extension FaultPoint {
    static let favoritesFetch = FaultPoint("store/favorites/fetch")
    static let favoritesSave = FaultPoint("store/favorites/save")
    static let favoritesDelete = FaultPoint("store/favorites/delete")
    static let favoritesPredicate = FaultPoint("store/favorites/predicate")
}
