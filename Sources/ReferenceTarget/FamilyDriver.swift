import ChaosTarget
import Foundation
import SystemUnderTest

/// The family feature (seed 001) under the built-in target: family creation with
/// remote sync, against the registry the case runner starts behind its fault proxy.
///
/// The remote's address is the registry's, as the target declares it (its fault proxy's,
/// given by Chaos for the cases that run it); without it the feature has no remote and keeps
/// families on the device. While families wait to sync the health mode is
/// `local-only`, and the screen shows a warning that says so.
@MainActor
final class FamilyDriver: FeatureDriver {
    static let actions: [TargetAction<SystemUnderTestTarget>] = [
        action("family.create", [.text("name"), .int("parallel", in: 1...8)]) { driver, call, app in
            let name = try call.string("name", default: "Family")
            let parallel = try call.int("parallel", default: 1, in: 1...8)
            return await driver.create(name: name, parallel: parallel, app: app, call)
        },
        action("family.retry") { driver, call, app in
            let screen = driver.feature(app).screen
            let ok = await screen.retry()
            return result(ok: ok, screen, created: ok ? screen.family.map { [$0] } ?? [] : [], app: app, call)
        },
        action("family.sync") { driver, _, app in
            let screen = driver.feature(app).screen
            let ok = await screen.syncPending()
            return ActionResult(ok: ok, value: .int(driver.feature(app).pendingSyncCount),
                                userMessage: ok ? nil : screen.syncError?.userMessage,
                                error: ok ? nil : screen.syncError.map { "\($0.underlying)" })
        },
        action("family.list") { driver, _, app in
            let screen = driver.feature(app).screen
            let ok = await screen.loadFamilies()
            return ActionResult(ok: ok, value: .int(screen.families.count), userMessage: screen.listError?.userMessage,
                                error: screen.listError?.underlying, isRead: ok)
        },
        action("family.join", [.text("code")]) { driver, call, app in
            let screen = driver.feature(app).screen
            let ok = await screen.join(code: try call.string("code", default: ""))
            if ok, let family = screen.joined?.family, app.store?.isPersistent == true { call.acknowledge("family:\(family.id)") }
            return ActionResult(ok: ok, value: screen.joined.map { .string($0.source.rawValue) } ?? .null,
                                userMessage: screen.joinError?.userMessage, error: screen.joinError.map { "join failed: \($0.underlying)" })
        },
    ]
    static let probes: [TargetProbe<SystemUnderTestTarget>] = [
        probe("family.state") { driver, app in .string(driver.feature(app).screen.state.wireName) },
        probe("family.pending") { driver, app in .int(driver.feature(app).pendingSyncCount) },
        probe("family.code") { driver, app in driver.feature(app).screen.family.map { .string($0.code) } ?? .null },
        probe("family.count") { driver, app in
            let screen = driver.feature(app).screen
            guard await screen.loadFamilies() else { return .null }
            return .int(screen.families.count)
        },
        probe("family.error") { driver, app in driver.feature(app).screen.errorMessage.map(ScenarioValue.string) ?? .null },
        probe("family.error-kind") { driver, app in
            let screen = driver.feature(app).screen
            return (screen.error ?? screen.joinError).map { .string($0.kind) } ?? .null
        },
        probe("family.can-retry") { driver, app in .bool(driver.feature(app).screen.canRetry) },
        probe("family.sync-waits") { driver, app in
            .list(await driver.feature(app).lastSyncWaits().map { .int(Int($0 / .milliseconds(1))) })
        },
        probe("family.backoff-grows") { driver, app in
            // Each wait at least the one before, the last longer than the first.
            let waits = await driver.feature(app).lastSyncWaits()
            return .bool(waits.count >= 2 && zip(waits, waits.dropFirst()).allSatisfy { $0 <= $1 } && (waits.last ?? .zero) > (waits.first ?? .zero))
        },
        probe("family.joined-from") { driver, app in driver.feature(app).screen.joined.map { .string($0.source.rawValue) } ?? .null },
    ]
    private var settings = FamilyRemoteSettings.unconfigured

    func configure(_ context: TargetContext) {
        settings = FamilyRemoteSettings(baseURL: context.remotes[SystemUnderTestTarget.registryName]?.url(),
                                        seed: context.seed)
    }

    private func feature(_ app: ChaosApp) -> FamilyFeature {
        app.family.configure(settings)
        return app.family
    }

    /// `parallel: N` opens N create screens and taps "create" on all of them at once.
    private func create(name: String, parallel: Int, app: ChaosApp, _ call: ActionCall) async -> ActionResult {
        let family = feature(app)
        let screens = [family.screen] + (1..<parallel).map { _ in family.newScreen() }
        // All started before any is awaited: they interleave at every await, as taps do.
        let tasks = screens.enumerated().map { index, screen in
            let title = parallel == 1 ? name : "\(name) \(index + 1)"
            return Task { @MainActor in await screen.create(name: title) }
        }
        var outcomes: [Bool] = []
        for task in tasks { outcomes.append(await task.value) }
        let ok = outcomes.allSatisfy { $0 }
        let created = zip(screens, outcomes).compactMap { $1 ? $0.family : nil }
        var outcome = Self.result(ok: ok, screens.first { $0.error != nil } ?? family.screen, created: created, app: app, call)
        outcome.value = parallel == 1 ? created.first.map { .string($0.code) } ?? .null
            : .list(created.map { .string($0.code) })
        return outcome
    }

    private static func result(ok: Bool, _ screen: FamilyCreationViewModel, created: [Family], app: ChaosApp,
                        _ call: ActionCall) -> ActionResult {
        // Kept means kept on disk: in in-memory mode the app has said changes won't last.
        for family in created where app.store?.isPersistent == true { call.acknowledge("family:\(family.id)") }
        return ActionResult(ok: ok, userMessage: ok ? nil : screen.errorMessage,
                            error: ok ? nil : screen.error.map { "state failed: \($0.underlying)" })
    }

    func surfaced(app: ChaosApp) -> Surfaced {
        // Only a feature in use has anything on screen.
        guard settings.baseURL != nil else { return .nothing }
        let screen = feature(app).screen
        if let error = screen.error ?? screen.joinError ?? screen.listError { return .error(error.userMessage) }
        if let notice = screen.notice { return .warning(notice) }
        return .nothing
    }

    /// `local-only` while families wait for the remote. Asked only when this case
    /// gave the app a remote: other scenarios' launches read nothing more.
    func fallbackMode(app: ChaosApp) -> StoreMode? {
        guard settings.baseURL != nil else { return nil }
        return feature(app).pendingSyncCount > 0 ? .localOnly : nil
    }
}
