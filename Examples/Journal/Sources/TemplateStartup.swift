import GRDB

/// The start-up code as Xcode's templates write it, and as many apps ship it: any error
/// opening the store ends the app. (This is what NOT to do; it lives only in this example.)
enum TemplateStartup {
    static func open(at path: String) -> AppDatabase {
        do {
            let pool = try DatabasePool(path: path)
            return try AppDatabase(pool)
        } catch {
            // Replace this implementation with code to handle the error appropriately.
            // fatalError() causes the application to generate a crash log and terminate.
            fatalError("Unresolved error \(error)")
        }
    }
}
