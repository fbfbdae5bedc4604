/// One step of a scenario, with where it was written and how to show it.
public struct ScenarioStep: Sendable, Equatable {
    public var action: StepAction
    public var location: SourceLocation
    /// Human text for reports and logs: `do favorites.add {count: 25} ×3`,
    /// `fault corrupt-file store (garbage-header)`, `wait 250ms`.
    public var label: String
    /// Written in the scenario, or added by a sweep's trial plan (``TrialPlan``).
    public var origin: Origin

    public enum Origin: Sendable, Equatable {
        /// A step of the scenario file: numbered from 1, in order.
        case scenario
        /// A step a sweep trial adds: not numbered, so the scenario's own steps keep
        /// their numbers (and seeds); its fault's id is ``TrialPlan/faultID``.
        case trial
    }

    public init(action: StepAction, location: SourceLocation, label: String? = nil, origin: Origin = .scenario) {
        self.action = action
        self.location = location
        self.label = label ?? action.label
        self.origin = origin
    }
}

/// What a step does. In YAML a step is a bare word (`- launch`, `- stop`, `- kill`) or a
/// mapping led by its kind (`- do: favorites.add`, `- checkpoint: x`,
/// `- fault: corrupt-file`, `- clear: all`, `- wait: 1s`).
public enum StepAction: Sendable, Equatable {
    /// Start a worker process hosting the app.
    case launch
    /// Stop the app gracefully.
    case stop
    /// SIGKILL the app.
    case kill
    /// `do: NAME` with optional `with:`, `repeat:` and `expect-error:`.
    case perform(ActionStep)
    /// `checkpoint: NAME`: snapshot all user data under that name.
    case checkpoint(String)
    /// `fault: KIND` with the kind's own keys and, for faults that fire repeatedly, a trigger.
    case fault(FaultStep)
    /// `clear: KIND` (a catalog kind), `clear: power-loss` or `clear: all`.
    case clear(ClearScope)
    /// `wait: 250ms`.
    case wait(Duration)
    /// `power-loss`: the power goes out now, or when its trigger says.
    case powerLoss(PowerLossStep)

    /// The step's wire name: `launch`, `do`, `fault`, ...
    public var wireName: String { keyword.rawValue }

    var keyword: StepKeyword {
        switch self {
        case .launch: .launch
        case .stop: .stop
        case .kill: .kill
        case .perform: .do
        case .checkpoint: .checkpoint
        case .fault: .fault
        case .clear: .clear
        case .wait: .wait
        case .powerLoss: .powerLoss
        }
    }

    /// Human text: see ``ScenarioStep/label``.
    public var label: String {
        switch self {
        case .launch, .stop, .kill: return wireName
        case let .perform(action): return action.label
        case let .checkpoint(name): return "checkpoint \(name)"
        case let .fault(fault): return fault.label
        case let .clear(scope): return "clear \(scope.label)"
        case let .wait(duration): return "wait \(ScenarioDuration.format(duration))"
        case let .powerLoss(step): return step.label
        }
    }

    /// Whether the step needs a running app (`do`, `checkpoint`).
    var touchesApp: Bool {
        switch self {
        case .perform, .checkpoint: true
        default: false
        }
    }
}

/// The step kinds by wire name, declared once. `launch`, `stop` and `kill` are bare
/// words; the others lead a mapping.
public enum StepKeyword: String, CaseIterable, Sendable {
    case launch, stop, kill
    case `do`, checkpoint, fault, clear, wait
    case powerLoss = "power-loss"

    /// Written as a bare word, without a value.
    public var isBare: Bool { bareAction != nil }

    /// The action of a bare word; nil for the kinds that lead a mapping.
    var bareAction: StepAction? {
        switch self {
        case .launch: .launch
        case .stop: .stop
        case .kill: .kill
        case .powerLoss: .powerLoss(PowerLossStep())
        case .do, .checkpoint, .fault, .clear, .wait: nil
        }
    }
}

/// `do: NAME`: perform one of the target's named actions.
///
/// ```yaml
/// - do: favorites.add
///   with: { count: 25 }
///   repeat: 3
///   expect-error: false
/// ```
public struct ActionStep: Sendable, Equatable {
    /// The target's action name, e.g. `favorites.add`.
    public var name: String
    /// `with:`; empty when absent.
    public var arguments: [String: ScenarioValue]
    /// `repeat:`, 1...100000; 1 when absent.
    public var repeatCount: Int
    /// `expect-error:`; nil when absent (either outcome is fine for the step itself).
    public var expectError: Bool?

    public init(name: String, arguments: [String: ScenarioValue] = [:], repeatCount: Int = 1, expectError: Bool? = nil) {
        self.name = name
        self.arguments = arguments
        self.repeatCount = repeatCount
        self.expectError = expectError
    }

    public static let repeatRange = 1...100_000
    /// The keys a `do` step accepts, declared once.
    static let keys = ["do", "with", "repeat", "expect-error"]

    /// `do favorites.add {count: 25} ×3 (expect error)`.
    public var label: String {
        var text = "do \(name)"
        if !arguments.isEmpty { text += " " + ScenarioValue.map(arguments).description }
        if repeatCount > 1 { text += " ×\(repeatCount)" }
        if let expectError { text += expectError ? " (expect error)" : " (expect success)" }
        return text
    }
}

/// What a `clear` step disarms.
public enum ClearScope: Sendable, Equatable {
    /// `clear: all`: every fault, and a power loss waiting for its moment.
    case all
    /// `clear: KIND`: every armed fault of a catalog kind.
    case kind(String)
    /// `clear: power-loss`: a power loss waiting for its moment.
    case powerLoss
    /// One armed fault, by id: what a sweep's trial plan clears.
    case fault(id: String)

    /// As the scenario writes it.
    public var label: String {
        switch self {
        case .all: "all"
        case let .kind(kind): kind
        case .powerLoss: StepKeyword.powerLoss.rawValue
        case let .fault(id): id
        }
    }
}

/// `fault: KIND`: a fault of the catalog and when it fires.
public struct FaultStep: Sendable, Equatable {
    public var fault: AnyFault
    /// Always ``Trigger/init()`` (fire on every hit, from the first) for kinds that do
    /// not accept a trigger.
    public var trigger: Trigger

    public init(fault: AnyFault, trigger: Trigger = Trigger()) {
        self.fault = fault
        self.trigger = trigger
    }

    /// `fault corrupt-file store (garbage-header)`, `fault throw store/favorites/fetch after 3, 2 times`.
    public var label: String {
        let when = trigger.label
        return "fault \(fault.label)" + (when.isEmpty ? "" : " \(when)")
    }
}

/// `power-loss`: the machine loses power. Writes the OS had not synced are dropped,
/// kept or torn (per sector, seeded), and the app dies on the spot.
///
/// ```yaml
/// - power-loss                # now, dropping every unsynced write
/// - power-loss: torn          # mode: drop | keep | torn
///   after-writes: 12          # or at-sync: N, at-point: store/favorites/save; default now
/// ```
public struct PowerLossStep: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable, Codable {
        case drop, keep, torn
    }

    public enum Moment: Sendable, Equatable {
        case now
        case atSync(Int)
        case afterWrites(Int)
        case atPoint(String)
    }

    public var mode: Mode
    public var moment: Moment
    /// The seed of a torn cut's choices; nil: derived from the case seed and the step.
    /// A crash sweep sets it, to try one cut point with several seeds.
    public var seed: UInt64?

    public init(mode: Mode = .drop, moment: Moment = .now, seed: UInt64? = nil) {
        self.mode = mode
        self.moment = moment
        self.seed = seed
    }

    public static let keys = ["mode", "at-sync", "after-writes", "at-point"]

    /// True when the power goes out later, at a write, a sync or a point.
    public var isDeferred: Bool { moment != .now }

    public var label: String {
        let when: String
        switch moment {
        case .now: when = "now"
        case let .atSync(count): when = "at sync \(count)"
        case let .afterWrites(count): when = "after write \(count)"
        case let .atPoint(point): when = "at \(point)"
        }
        return "power-loss \(mode.rawValue) \(when)"
    }
}
