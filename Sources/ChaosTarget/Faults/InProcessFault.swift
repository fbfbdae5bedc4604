/// A fault whose decisions are made inside the app's process, where its events
/// happen: storage faults (each SQLite file call) and point faults (each hit of a
/// fault point). The controller sends it to the worker as an ``ArmedFault``; the
/// worker decodes it by kind, through ``FaultCatalog/inProcess``, and arms it in its seam.
package protocol InProcessFault: Fault, Codable {}

/// One fault armed in a running app: what it is, when it fires, where it stands.
///
/// The id names it in both directions: the controller arms and disarms by id, and
/// every firing the worker reports carries it, so a report never has to guess which
/// fault fired. `counter` is where its trigger stands; the worker reports it back
/// (``WorkerStatus/faults``), and the next launch is armed with it, so the counts of
/// `after` and `times` hold across relaunches.
package struct ArmedFault: Sendable, Codable, Equatable {
    /// `step-N`: the scenario step that armed it (a sweep's own fault: `trial`).
    package var id: String
    package var fault: AnyInProcessFault
    package var trigger: Trigger
    /// The seed of its trigger's draws and its own randomness.
    package var seed: UInt64
    package var counter: TriggerCounter
    /// A storage fault's memory (``StorageFault/Memory``), as JSON; nil for a fresh one.
    package var memory: String?

    package init(id: String, fault: any InProcessFault, trigger: Trigger, seed: UInt64,
                counter: TriggerCounter? = nil, memory: String? = nil) {
        self.id = id
        self.fault = AnyInProcessFault(fault)
        self.trigger = trigger
        self.seed = seed
        self.counter = counter ?? TriggerCounter(seed: seed)
        self.memory = memory
    }

    /// The same fault, resumed where a worker last reported it.
    package func resumed(at progress: FaultStanding) -> ArmedFault {
        var copy = self
        copy.counter = progress.counter
        copy.memory = progress.memory
        return copy
    }
}

/// Where an armed fault stands, as a worker reports it after each request.
package struct FaultStanding: Sendable, Codable, Equatable {
    package var id: String
    package var counter: TriggerCounter
    package var memory: String?

    package init(id: String, counter: TriggerCounter, memory: String? = nil) {
        self.id = id
        self.counter = counter
        self.memory = memory
    }
}

/// An in-process fault of any kind, Codable as `{"kind": "disk-full", "parameters": {...}}`.
package struct AnyInProcessFault: Sendable, Codable, Equatable {
    package let base: any InProcessFault

    package init(_ base: any InProcessFault) {
        self.base = base
    }

    package var kind: String { type(of: base).kind }

    private enum Key: String, CodingKey { case kind, parameters }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(base, forKey: .parameters)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let kind = try container.decode(String.self, forKey: .kind)
        guard let type = FaultCatalog.inProcess.first(where: { $0.kind == kind }) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container,
                                                   debugDescription: "'\(kind)' is not a fault an app's process carries out")
        }
        base = try Self.decode(type, from: container)
    }

    private static func decode<F: InProcessFault>(_ type: F.Type, from container: KeyedDecodingContainer<Key>) throws -> any InProcessFault {
        try container.decode(F.self, forKey: .parameters)
    }

    package static func == (lhs: AnyInProcessFault, rhs: AnyInProcessFault) -> Bool {
        lhs.base.isEqual(to: rhs.base)
    }
}
