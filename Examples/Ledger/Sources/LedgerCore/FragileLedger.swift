import Foundation
import SQLiteNIO

/// The ledger started as Xcode's templates start an app: any error opening the store ends
/// it, and a save's error is swallowed. (This is what NOT to do; it lives only in this
/// example.)
public final class FragileLedger: Ledger {
    private let connection: SQLiteConnection
    public let notice: String? = nil

    private init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    public static func open(at path: String) async -> FragileLedger {
        do {
            let connection = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await connection.query(LedgerSchema.create)
            return FragileLedger(connection)
        } catch {
            // Replace this implementation with code to handle the error appropriately.
            fatalError("Unresolved error \(error)")
        }
    }

    public func add(amount: Int) async throws -> Entry {
        (try? await LedgerSchema.insert(amount, on: connection)) ?? Entry(id: 0, amount: amount)  // never tells the user
    }

    public func all() async throws -> [Entry] {
        try await LedgerSchema.entries(on: connection)
    }

    public func close() async {
        try? await connection.close()
    }
}
