import ChaosTarget
import Foundation
import GRDB
import ReferenceScenarios
import SystemUnderTest

/// The built-in target: the reference app of SystemUnderTest, hardened or legacy,
/// hosted by the hidden `chaos worker` subcommand. It is also the example of how a
/// user's stack becomes chaos-testable: launch, actions, probes, a snapshot of the
/// user's data, and the logical names of its files.
///
/// Each feature of the app has its driver (`FeatureDriver`); this type holds what is
/// common: the launch, the health and `surfaced` probes, the snapshot.
@MainActor
final class SystemUnderTestTarget: ChaosTarget {
    static let files = [
        "store": "app.sqlite", "wal": "app.sqlite-wal", "shm": "app.sqlite-shm", "backups": "backups",
    ]
    /// The store, with its WAL and index, is in a shared container: the favourites
    /// widget reads it (the suspension cases of `chaos check` run on it).
    static let sharedContainer = ["store", "wal", "shm"]
    static let variants = AppVariant.allCases.map(\.rawValue)
    /// The storage catalog's contract: one favourite saved, the list read back; a damaged
    /// store comes back from its backup.
    static let workload: Workload? = Workload(write: "favorites.add", read: "favorites.list", afterDamage: .restoredFromBackup)
    static let options = [
        TargetOption("synchronous", .choice(Durability.allCases.map(\.rawValue)),
                     summary: "SQLite's durability: full (the default), normal or off"),
        TargetOption("backup-every", .int(1...1_000_000), summary: "a backup every N acknowledged writes (default 100)"),
        TargetOption("help-site", .text, summary: "the host of the help pages the settings screen links to (default help.example.com)"),
    ]
    /// The systems of the seed documents, one driver each (``makeDrivers(_:)``).
    static let systems = ["favorites", "vocabulary", "family", "visits", "settings"]
    /// Its scenarios, which `chaos run corrupted-db` names by name (`Sources/Scenarios/catalog`).
    static var scenarioFolder: URL? { ReferenceScenarios.catalogDirectory }
    /// The family registry, the remote family creation syncs to: started for each family
    /// scenario (and any that arms a network fault or asks one of its probes), by this very
    /// executable (`chaos registry`).
    static var remotes: [Remote] {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return [.command(registryName, executable: executable, arguments: [RegistryCommand.subcommand, "--port", Remote.portPlaceholder],
                         systems: ["family"], probes: FamilyRegistryServer.probes)]
    }
    static let registryName = "registry"
    /// Every feature's actions, each declared once by its driver.
    static var actions: [TargetAction<SystemUnderTestTarget>] {
        FavoritesDriver.actions + VocabularyDriver.actions + FamilyDriver.actions + VisitsDriver.actions + SettingsDriver.actions
            + ClockDriver.actions
    }
    static var probes: [TargetProbe<SystemUnderTestTarget>] {
        [TargetProbe("backups.count") { target in .int(try target.runningApp(for: "probe 'backups.count'").store?.backupFiles.count ?? 0) }]
            + FavoritesDriver.probes + VocabularyDriver.probes + FamilyDriver.probes + VisitsDriver.probes + SettingsDriver.probes
            + ClockDriver.probes
    }

    /// Every feature's driver. A new feature adds its driver here, and its actions and
    /// probes above.
    static func makeDrivers(_ dataDirectory: URL) -> [any FeatureDriver] {
        [FavoritesDriver(dataDirectory: dataDirectory), VocabularyDriver(dataDirectory: dataDirectory),
         FamilyDriver(), VisitsDriver(dataDirectory: dataDirectory), SettingsDriver(),
         ClockDriver()]  // not a feature: the clock probes of clock faults
    }

    private let context: TargetContext
    private var app: ChaosApp?
    private let drivers: [any FeatureDriver]

    init(context: TargetContext) {
        self.context = context
        drivers = Self.makeDrivers(context.dataDirectory)
        for driver in drivers { driver.configure(context) }
    }

    private var configuration: StoreConfiguration {
        StoreConfiguration(
            directory: context.dataDirectory,
            durability: context.options["synchronous"].flatMap(Durability.init(rawValue:)) ?? .full,
            backupEveryWrites: context.options["backup-every"].flatMap(Int.init) ?? 100)
    }

    func launch() async -> Health {
        let app = ChaosApp(variant: AppVariant(rawValue: context.variant) ?? .hardened, configuration: configuration)
        self.app = app
        return health
    }

    /// The app, launched: `what` (an action, a probe) needs it.
    func runningApp(for what: String) throws -> ChaosApp {
        guard let app else { throw TargetError("\(what) before launch") }
        return app
    }

    /// The driver of a feature, and the running app, for `what` (an action, a probe).
    func running<Driver: FeatureDriver>(_ feature: Driver.Type, for what: String) throws -> (Driver, ChaosApp) {
        let app = try runningApp(for: what)
        guard let driver = drivers.lazy.compactMap({ $0 as? Driver }).first else { throw TargetError("no feature answers \(what)") }
        return (driver, app)
    }

    /// What the app shows the user: a feature's error beats the launch notice.
    var surfaced: Surfaced {
        guard let app else { return .nothing }
        let shown = drivers.map { $0.surfaced(app: app) }
        if let error = shown.first(where: { $0.severity == .error }) { return error }
        let health = app.health
        if let message = health.userMessage { return Surfaced(Severity(rawValue: health.severity.rawValue) ?? .warning, message) }
        // A feature's own warning (family: kept on this device for now) comes after the launch's.
        return shown.first { $0.severity != .none } ?? .nothing
    }

    /// The user's records: the store's rows, and those a feature keeps outside the store
    /// and serves from there (settings pending in the fallback file) — the user's as much
    /// as a row is, and newer than the store's copy.
    func snapshot() async throws -> [String: [String: String]] {
        guard let app else { return [:] }
        var tables = try await storeSnapshot(app.store)
        for driver in drivers {
            for (table, records) in driver.recordsOutsideStore(app: app) {
                tables[table, default: [:]].merge(records) { _, outside in outside }
            }
        }
        return tables
    }

    private func storeSnapshot(_ store: AppStore?) async throws -> [String: [String: String]] {
        guard let store else { return [:] }
        return try await store.writer.read { db in
            var tables: [String: [String: String]] = [:]
            for table in AppSchema.userTables {
                // A store without the table (a first launch that failed) holds no records.
                let rows = try db.tableExists(table) ? try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") : []
                tables.merge(.records(table, rows, id: { $0["id"] as Int64? ?? 0 })) { _, new in new }
            }
            return tables
        }
    }

    func stop() async {
        app?.stop()
        app = nil
    }

    nonisolated func willSuspend() { StoreSuspension.willSuspend(variant) }
    nonisolated func didResume() { StoreSuspension.didResume(variant) }
    private nonisolated var variant: AppVariant { AppVariant(rawValue: context.variant) ?? .hardened }

    /// `reset-context`: resets the settings feature's unit of work, from whatever thread hit the point.
    nonisolated func applyEffect(_ effect: String, at point: String) {
        if effect == ResetContextFault.effect { SettingsFeature.resetCurrentContext() }
    }

    var health: Health {
        guard let app else { return Health(mode: .inMemory, severity: .error, message: "The app is not running.") }
        let health = app.health
        // A feature's fallback (family: local-only) shows only when the store itself is fine.
        let mode = (health.mode == .persistent ? drivers.lazy.compactMap { $0.fallbackMode(app: app) }.first : nil)
            .map(\.rawValue) ?? health.mode.rawValue
        return Health(
            mode: Health.Mode(rawValue: mode), severity: Severity(rawValue: health.severity.rawValue) ?? .none,
            message: health.userMessage,
            facts: [
                "healthy": .bool(health.isHealthy),
                "loadError": health.loadError.map(ScenarioValue.string) ?? .null,
                "launchMs": .int(health.launchDuration.wholeMilliseconds),
                "quarantined": .int(health.quarantinedFiles.count),
                "salvagedRows": .int(health.salvagedRows),
                "restoredBackup": health.restoredBackup.map(ScenarioValue.string) ?? .null,
            ])
    }
}

extension SystemUnderTestTarget {
    /// GRDB's first statements, on an in-memory database and on a pool in WAL mode (the
    /// app's store), and a migrator's first look at its table: what a forked worker would
    /// pay for first (the runtime's first look-ups of these types, measured at a tenth of
    /// a hunt's CPU) is paid once.
    @MainActor static func warmUpBeforeForking() {
        guard let queue = try? DatabaseQueue() else { return }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("warm") { db in
            try db.execute(sql: "CREATE TABLE warm(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        try? migrator.migrate(queue)
        _ = try? queue.write { db in
            try db.execute(sql: "INSERT INTO warm(name) VALUES (?)", arguments: ["x"])
            _ = try db.tableExists("warm")
            _ = try migrator.hasCompletedMigrations(db)
            _ = try migrator.appliedIdentifiers(db)
            _ = try String.fetchAll(db, sql: "PRAGMA quick_check")
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode")
            _ = try String.fetchSet(db, sql: "SELECT name FROM warm")
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM warm")
            _ = try Int32.fetchOne(db, sql: "PRAGMA schema_version")
            // A snapshot's rows as its records: the row described, its id unwrapped.
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM warm")
            _ = [String: [String: String]].records("warm", rows, id: { $0["id"] as Int64? ?? 0 })
        }
        // Kept open: closing it would hand its release to a dispatch thread, and a
        // process with a second thread may not fork.
        warmQueue = queue
        warmPool = warmWALPool()
        warmWhatEveryLaunchLooksUp(queue)
    }

    /// The runtime's first look-ups of types a launch, an action or a store's end makes
    /// (a cast, a generic dictionary, a lazy table), found with `perf` in forked workers:
    /// a tenth of their CPU in a hardened hunt went to these.
    private static func warmWhatEveryLaunchLooksUp(_ queue: DatabaseQueue) {
        // A store's end (`deinit` tells the notification center), for both kinds of store.
        NotificationCenter.default.removeObserver(queue)
        if let warmPool { NotificationCenter.default.removeObserver(warmPool) }
        // A pool reopened on a store whose WAL file is there (GRDB asks its size).
        _ = try? URL(fileURLWithPath: FileManager.default.temporaryDirectory.path).resourceValues(forKeys: [.fileSizeKey])
        // A small file written whole (the next record's number, the settings' fallback).
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-\(getpid())-warm-file")
        if (try? "1".write(to: file, atomically: true, encoding: .utf8)) != nil { try? FileManager.default.removeItem(at: file) }
        _ = try? queue.read { db in try Table("warm").fetchCount(db) }
        // The features: their actions' tables, the settings' defaults, the registry's URL.
        _ = actions
        var settings: [SettingKey: String] = [:]
        for key in SettingKey.allCases { settings[key] = key.defaultValue }
        _ = URL(string: "http://127.0.0.1:1/families")
        _ = "warm ".trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A pool in WAL mode on a file of its own, removed at once (the pool keeps it open).
    private static func warmWALPool() -> DatabasePool? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-\(getpid())-warm")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
              let pool = try? DatabasePool(path: folder.appendingPathComponent("warm.sqlite").path) else { return nil }
        _ = try? pool.write { db in try db.execute(sql: "CREATE TABLE warm(id INTEGER PRIMARY KEY)") }
        _ = try? pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM warm") }
        _ = try? FileManager.default.attributesOfItem(atPath: folder.path)
        return pool
    }

    nonisolated(unsafe) static var warmQueue: DatabaseQueue?
    nonisolated(unsafe) static var warmPool: DatabasePool?
}
