import NIOConcurrencyHelpers
import ChaosTarget

/// The data of the family registry, the remote that stands in for CloudKit in the
/// reference app's family sync (seed 001). The controller inspects it after a case:
/// a family is synced once, never twice.
///
/// Codes are unique: a second registration of a code is refused (HTTP 409). What
/// must never happen is counted anyway, so a check can fail: a code stored twice,
/// or one `clientID` (the app's id of one creation, kept across its retries)
/// behind two families — an app that retried a creation with a new code.
package final class FamilyRegistry: Sendable {
    package struct Family: Codable, Sendable, Equatable {
        package var code: String
        package var name: String
        package var clientID: String

        package init(code: String, name: String, clientID: String) {
            self.code = code
            self.name = name
            self.clientID = clientID
        }
    }

    package enum Registration: Equatable, Sendable {
        case created(Family)
        /// The code is taken; the family that holds it.
        case conflict(Family)
    }

    private struct State {
        var families: [Family] = []
        /// Successful registrations per code.
        var registrations: [String: Int] = [:]
        /// Registration requests, successful or not.
        var requests = 0
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Registers a family, unless its code is taken.
    package func register(_ family: Family) -> Registration {
        state.withLockedValue { state in
            state.requests += 1
            if let existing = state.families.first(where: { $0.code == family.code }) { return .conflict(existing) }
            state.families.append(family)
            state.registrations[family.code, default: 0] += 1
            return .created(family)
        }
    }

    package func family(code: String) -> Family? {
        state.withLockedValue { $0.families.first { $0.code == code } }
    }

    /// Every family, in the order registered.
    package var families: [Family] { state.withLockedValue(\.families) }

    /// Registration requests received (a retried one counts each time).
    package var registrationRequests: Int { state.withLockedValue(\.requests) }

    /// Codes registered more than once, plus client ids behind more than one family.
    /// Zero when every creation reached the remote at most once.
    package var duplicates: Int {
        state.withLockedValue { state in
            let codes = state.registrations.values.filter { $0 > 1 }.count
            let perClient = Dictionary(grouping: state.families, by: \.clientID)
            return codes + perClient.values.filter { $0.count > 1 }.count
        }
    }
}
