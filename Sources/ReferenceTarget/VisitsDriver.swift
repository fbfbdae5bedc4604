import ChaosTarget
import Foundation
import SystemUnderTest

/// The visits log and its data-error screen (seed 003) under the built-in target.
///
/// While the data-error screen is shown, the list's actions are refused with the
/// screen's message, as a user cannot reach them; the screen's own actions are
/// `visits.restart`, `visits.contact-support`, `visits.reset` and `visits.retry-load`.
@MainActor
final class VisitsDriver: FeatureDriver {
    static let actions: [TargetAction<SystemUnderTestTarget>] = [
        listAction("visits.add", [.int("count", in: 1...1_000_000)]) { driver, call, app, list in
            for id in driver.counter.next(try call.int("count", default: 1)) {
                let key = "visit:\(id)"
                call.attempt(key)
                if await list.addVisit(.numbered(id)), app.store?.isPersistent == true { call.acknowledge(key) }
            }
            return result(ok: list.state != .error, list)
        },
        listAction("visits.list") { _, _, _, list in
            let ok = await list.load()
            var outcome = result(ok: ok, list)
            outcome.value = .int(list.visits.count)
            outcome.isRead = ok
            return outcome
        },
        listAction("visits.retry") { _, _, _, list in
            let ok = await list.retry()
            var outcome = result(ok: ok, list)
            outcome.isRead = ok && list.state != .error
            return outcome
        },
        listAction("visits.remove", [.int("id", in: 1...1_000_000_000)]) { _, call, _, list in
            let id = Int64(try call.int("id", default: 1, in: 1...1_000_000_000))
            call.removing("visit:\(id)")
            let ok = await list.removeVisit(id: id)
            if ok { call.removed("visit:\(id)") }
            return result(ok: ok, list)
        },
        screenAction("visits.restart") { _, _, dataError in
            dataError.restart()
            return ActionResult(ok: true, value: .bool(dataError.restartRequested))
        },
        screenAction("visits.contact-support") { driver, _, dataError in
            guard let file = dataError.contactSupport() else {
                return ActionResult(ok: false, userMessage: dataError.actionMessage, error: "the diagnostics file was not written")
            }
            return ActionResult(ok: true, value: .string(file.path.replacingOccurrences(of: driver.dataDirectory.path + "/", with: "")))
        },
        screenAction("visits.reset", [.flag("confirm")]) { _, call, dataError in
            switch dataError.resetData(confirmed: try call.bool("confirm", default: false)) {
            case .needsConfirmation:
                return ActionResult(ok: false, userMessage: dataError.confirmationPrompt,
                                    error: "refused: a reset needs the user's confirmation (confirm: true)")
            case let .movedAside(files):
                return ActionResult(ok: true, value: .list(files.map(ScenarioValue.string)))
            case .failed:
                return ActionResult(ok: false, userMessage: dataError.actionMessage, error: "the files could not be moved aside")
            }
        },
        action("visits.retry-load") { driver, _, app in
            driver.opened = true
            return await driver.retryLoad(screen: app.visits, app: app)
        },
    ]
    static let probes: [TargetProbe<SystemUnderTestTarget>] = [
        screenProbe("visits.screen") { _, screen in .string(screen.isShowingDataError ? "data-error" : "list") },
        screenProbe("visits.state") { _, screen in .string(screen.isShowingDataError ? "data-error" : screen.list.state.rawValue) },
        screenProbe("visits.count") { _, screen in
            guard !screen.isShowingDataError, await screen.list.load() else { return .null }
            return .int(screen.list.visits.count)
        },
        screenProbe("visits.error") { _, screen in
            screen.surfaced.severity == .error ? screen.surfaced.message.map(ScenarioValue.string) ?? .null : .null
        },
        screenProbe("visits.problem") { _, screen in .string(screen.health.problem?.rawValue ?? "none") },
        screenProbe("visits.restart-requested") { _, screen in .bool(screen.dataError?.restartRequested ?? false) },
        screenProbe("visits.set-aside") { _, screen in .list(screen.filesSetAside.map(ScenarioValue.string)) },
        screenProbe("visits.store-hash") { driver, _ in .string(fingerprint(of: driver.dataDirectory.appendingPathComponent("app.sqlite"))) },
        screenProbe("visits.diagnostics") { _, screen in
            guard let file = screen.dataError?.diagnosticsFile, let data = try? Data(contentsOf: file),
                  let text = String(data: data, encoding: .utf8) else { return .null }
            return .string(text)
        },
    ]

    /// An action of the list: refused with the screen's message while the data-error
    /// screen is shown instead, as a user cannot reach it.
    nonisolated private static func listAction(_ name: String, _ parameters: [ActionParameter] = [],
                                   _ body: @escaping @MainActor @Sendable (VisitsDriver, ActionCall, ChaosApp, VisitsViewModel) async throws -> ActionResult)
        -> TargetAction<SystemUnderTestTarget> {
        action(name, parameters) { driver, call, app in
            driver.opened = true
            let screen = app.visits
            if let dataError = screen.dataError {
                return ActionResult(ok: false, userMessage: dataError.message,
                                    error: "the data-error screen is shown instead of the list (\(screen.health.problem?.rawValue ?? "?"))")
            }
            return try await body(driver, call, app, screen.list)
        }
    }

    /// An action of the data-error screen: refused while the screen is not shown.
    nonisolated private static func screenAction(_ name: String, _ parameters: [ActionParameter] = [],
                                     _ body: @escaping @MainActor @Sendable (VisitsDriver, ActionCall, DataErrorViewModel) throws -> ActionResult)
        -> TargetAction<SystemUnderTestTarget> {
        action(name, parameters) { driver, call, app in
            driver.opened = true
            guard let dataError = app.visits.dataError else {
                return ActionResult(ok: false, error: "'\(call.name)' is on the data-error screen, which is not shown")
            }
            return try body(driver, call, dataError)
        }
    }

    /// A probe of the visits tab, which asking opens.
    nonisolated private static func screenProbe(_ name: String, _ body: @escaping @MainActor @Sendable (VisitsDriver, VisitsScreen) async throws -> ScenarioValue)
        -> TargetProbe<SystemUnderTestTarget> {
        probe(name) { driver, app in
            driver.opened = true
            return try await body(driver, app.visits)
        }
    }

    private let counter: RecordCounter
    private let dataDirectory: URL
    /// The visits tab was opened in this launch: only then does it show anything.
    private var opened = false

    init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
        counter = RecordCounter(file: dataDirectory.appendingPathComponent("chaos-next-visit-id"))
    }

    /// The data-error screen's "Try again" (seed 003's `retryLoad()`): on success the
    /// list is shown and read, a read that ends the recovery window.
    private func retryLoad(screen: VisitsScreen, app: ChaosApp) async -> ActionResult {
        guard let dataError = screen.dataError else {
            return ActionResult(ok: false, error: "'visits.retry-load' is on the data-error screen, which is not shown")
        }
        guard dataError.offersRetry else {
            return ActionResult(ok: false, userMessage: dataError.message,
                                error: "the screen offers no retry for this cause (\(screen.health.problem?.rawValue ?? "?"))")
        }
        _ = app.retryLoad()
        let again = app.visits
        if let stillShown = again.dataError {
            return ActionResult(ok: false, userMessage: stillShown.message, error: "the visits still cannot be opened")
        }
        let ok = await again.list.load()
        var outcome = Self.result(ok: ok, again.list)
        outcome.value = .int(again.list.visits.count)
        outcome.isRead = ok
        return outcome
    }

    func surfaced(app: ChaosApp) -> Surfaced {
        guard opened else { return .nothing }
        let shown = app.visits.surfaced
        return shown.severity == .error ? Surfaced(.error, shown.message) : .nothing
    }

    private static func result(ok: Bool, _ list: VisitsViewModel) -> ActionResult {
        ActionResult(ok: ok, userMessage: ok ? nil : list.errorMessage,
                     error: ok ? nil : "view model state \(list.state.rawValue)")
    }

    /// FNV-1a (64-bit) of a file's bytes, as hex: enough to tell whether the app changed
    /// a single byte of it (not a security hash). "missing" when there is no file.
    static func fingerprint(of file: URL) -> String {
        guard let data = try? Data(contentsOf: file) else { return "missing" }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return String(format: "fnv1a64:%016llx", hash)
    }
}
