import ChaosTarget
import Foundation

/// The migration cases of `chaos check` for a target that declares the stores its older
/// versions left (``Workload/olderStores``): each store is put in place of the target's
/// own while the app is closed, and this version launches on it —
///
/// - `check-migrate-NAME`: plainly; it reads its data, and after a restart every record
///   the older store holds is there, the store sound;
/// - `check-migrate-NAME-disk-full`: with the disk full at that launch, so that the
///   migration cannot write. It must not trap, and it must not lose or set aside what it
///   could not migrate: once space is free again, a launch finds every record.
///
/// Generated from the declaration, so a case reproduces with `chaos check --only NAME`.
package enum MigrationCases {
    package static func scenarios(for workload: Workload?) throws(ScenarioError) -> [Scenario] {
        var scenarios: [Scenario] = []
        for store in workload?.olderStores ?? [] {
            for full in [false, true] {
                let name = "check-migrate-\(store.name)" + (full ? "-disk-full" : "")
                var scenario = try ScenarioLoader.load(yaml: yaml(name, store, diskFull: full), file: "check/\(name).yaml", baseDirectory: nil)
                scenario.origin = .storageCatalog
                scenarios.append(scenario)
            }
        }
        return scenarios
    }

    static func yaml(_ name: String, _ store: OlderStore, diskFull: Bool) -> String {
        let path = "\"" + store.path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        let summary = diskFull
            ? "The store version \(store.name) left is opened with the disk full, so it cannot be migrated; nothing traps, and once space is free all \(store.records) records are there."
            : "The store version \(store.name) left is opened by this version; after a restart all \(store.records) records are there."
        let middle = diskFull ? """
              - fault: disk-full
              - launch
              - do: workload.read
              - stop
              - clear: disk-full

            """ : ""
        return """
            name: \(name)
            summary: "\(summary)"
            system: storage
            steps:
              - launch
              - stop
              - fault: replace-file
                file: store
                with: \(path)
            \(middle)  - launch
              - do: workload.read
              - stop
              - launch
              - do: workload.read
            expect:
              - no-trap
              - records-at-least: \(store.records)
              - integrity: ok-if-used
              - recovered-within: 5s

            """
    }
}
