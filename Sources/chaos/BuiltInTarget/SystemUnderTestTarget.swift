import Chaos
import Foundation
import GRDB
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
    static let commonProbes = ["health", "surfaced", "backups.count"]
    static var actions: [String] { makeDrivers(URL(fileURLWithPath: "/")).flatMap(\.actions) }
    static var probes: [String] { commonProbes + makeDrivers(URL(fileURLWithPath: "/")).flatMap(\.probes) }

    /// Every feature's driver. A new feature adds its driver here.
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

    func launch() async -> ScenarioValue {
        let app = ChaosApp(variant: AppVariant(rawValue: context.variant) ?? .hardened, configuration: configuration)
        self.app = app
        return healthValue(app)
    }

    func perform(_ action: String, arguments: [String: ScenarioValue]) async throws -> ActionResult {
        guard let app else { throw TargetError("'\(action)' before launch") }
        for driver in drivers {
            if let result = try await driver.perform(action, arguments: arguments, app: app) { return result }
        }
        throw TargetError("unknown action '\(action)'; this target answers: \(Self.actions.joined(separator: ", "))")
    }

    func probe(_ name: String) async throws -> ScenarioValue {
        guard let app else { throw TargetError("probe '\(name)' before launch") }
        switch name {
        case "health": return healthValue(app)
        case "surfaced":
            let shown = surfaced(app)
            return .map(["severity": .string(shown.severity.rawValue),
                         "message": shown.message.map(ScenarioValue.string) ?? .null])
        case "backups.count": return .int(app.store?.backupFiles.count ?? 0)
        default:
            for driver in drivers {
                if let value = try await driver.probe(name, app: app) { return value }
            }
            throw TargetError("unknown probe '\(name)'; this target answers: \(Self.probes.joined(separator: ", "))")
        }
    }

    /// What the app shows the user: a feature's error beats the launch notice.
    private func surfaced(_ app: ChaosApp) -> (severity: Severity, message: String?) {
        for driver in drivers {
            let shown = driver.surfaced(app: app)
            if shown.severity == .error { return shown }
        }
        let health = app.health
        if let message = health.userMessage { return (health.severity, message) }
        // A feature's own warning (family: kept on this device for now) comes after the launch's.
        if let shown = drivers.lazy.map({ $0.surfaced(app: app) }).first(where: { $0.severity != .none }) { return shown }
        return (.none, nil)
    }

    func snapshot() async throws -> [String: [String: String]] {
        guard let store = app?.store else { return [:] }
        return try await store.writer.read { db in
            var tables: [String: [String: String]] = [:]
            for table in AppSchema.userTables {
                var records: [String: String] = [:]
                // A store without the table (a first launch that failed) holds no records.
                guard try db.tableExists(table) else { tables[table] = [:]; continue }
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") {
                    let id: Int64 = row["id"] ?? 0
                    records["\(table):\(id)"] = row.description
                }
                tables[table] = records
            }
            return tables
        }
    }

    func stop() async {
        app?.stop()
        app = nil
    }

    /// `reset-context`: resets the settings feature's unit of work, from whatever thread hit the point.
    nonisolated func applyEffect(_ effect: String, at point: String) {
        if effect == ResetContextFault.effect { SettingsFeature.resetCurrentContext() }
    }

    private func healthValue(_ app: ChaosApp) -> ScenarioValue {
        let health = app.health
        return .map([
            // A feature's fallback (family: local-only) shows only when the store itself is fine.
            "mode": .string((health.mode == .persistent ? drivers.lazy.compactMap { $0.fallbackMode(app: app) }.first : nil)
                .map(\.rawValue) ?? health.mode.rawValue),
            "healthy": .bool(health.isHealthy),
            "severity": .string(health.severity.rawValue),
            "message": health.userMessage.map(ScenarioValue.string) ?? .null,
            "loadError": health.loadError.map(ScenarioValue.string) ?? .null,
            "launchMs": .int(Int(health.launchDuration.components.seconds * 1000
                + health.launchDuration.components.attoseconds / 1_000_000_000_000_000)),
            "quarantined": .int(health.quarantinedFiles.count),
            "salvagedRows": .int(health.salvagedRows),
            "restoredBackup": health.restoredBackup.map(ScenarioValue.string) ?? .null,
        ])
    }
}
