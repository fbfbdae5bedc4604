import GRDB

/// A favourite Pokémon (seed 002): the user data of the favourites feature.
public struct Favorite: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "favorite"

    public var id: Int64
    public var name: String
    public var imageURL: String

    public init(id: Int64, name: String, imageURL: String) {
        self.id = id
        self.name = name
        self.imageURL = imageURL
    }

    /// The favourite a scenario adds for a given number: stable, so snapshots compare.
    public static func numbered(_ id: Int64) -> Favorite {
        Favorite(id: id, name: "Pokemon \(id)", imageURL: "https://img.example/pokemon/\(id).png")
    }
}
