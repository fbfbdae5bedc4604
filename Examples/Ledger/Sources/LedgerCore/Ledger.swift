import Foundation
import SQLiteNIO

/// An entry of the ledger: what the example app keeps.
public struct Entry: Sendable, Equatable, Identifiable {
    public var id: Int
    public var amount: Int
}

/// What the screen is told when something goes wrong, in plain words: its
/// `errorDescription`, as a `LocalizedError`'s.
public struct LedgerProblem: LocalizedError {
    public let message: String

    public var errorDescription: String? { message }
}

/// The ledger's store on sqlite-nio (as a Vapor or Hummingbird app keeps its data),
/// which compiles its own copy of SQLite under other names. Two start-ups: the one
/// Xcode's templates write, and the fixed one `chaos check` pushed it to.
public protocol Ledger: Sendable {
    /// What the user was told at launch, if anything.
    var notice: String? { get }
    func add(amount: Int) async throws -> Entry
    func all() async throws -> [Entry]
    func close() async
}

enum LedgerSchema {
    static let create = "CREATE TABLE IF NOT EXISTS entry (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)"

    static func insert(_ amount: Int, on connection: SQLiteConnection) async throws -> Entry {
        let rows = try await connection.query("INSERT INTO entry (amount) VALUES (?) RETURNING id", [.integer(.init(amount))])
        guard let id = rows.first?.column("id")?.integer else { throw LedgerProblem(message: "no id came back") }
        return Entry(id: Int(id), amount: amount)
    }

    static func entries(on connection: SQLiteConnection) async throws -> [Entry] {
        try await connection.query("SELECT id, amount FROM entry ORDER BY id").compactMap { row in
            guard let id = row.column("id")?.integer, let amount = row.column("amount")?.integer else { return nil }
            return Entry(id: Int(id), amount: Int(amount))
        }
    }
}
