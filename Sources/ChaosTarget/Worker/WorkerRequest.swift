/// One request of the controller: its id, and what it asks with what that needs. On the
/// wire an object with `id`, `op` and the fields of its op (docs/TARGETS.md §5): `name`
/// and `arguments` for `perform`, `name` for `probe` and `disarm`, `fault` for `arm`,
/// `torn` and `seam` for `track-writes`, `powerLoss` for `power-loss`.
package struct WorkerRequest: Codable, Sendable, Equatable {
    package var id: Int
    package var ask: Ask

    package enum Ask: Sendable, Equatable {
        case describe, launch, snapshot, stop, countPoints, suspend, resume, suspendWhileSaving
        /// A user-level action and its arguments.
        case perform(String, arguments: [String: ScenarioValue])
        case probe(String)
        case arm(ArmedFault)
        /// The armed fault with this id; nil: every fault.
        case disarm(String?)
        /// `torn`: keep sector-level detail so writes can be torn; `seam`: the seam that
        /// keeps them (nil: the one that reaches the target).
        case trackWrites(torn: Bool, seam: StorageSeam? = nil)
        case powerLoss(PowerLossOrder)
        case peerWrite(PeerWriteOrder)
    }

    package init(id: Int = 0, _ ask: Ask) {
        self.id = id
        self.ask = ask
    }

    package var op: WorkerOperation {
        switch ask {
        case .describe: .describe
        case .launch: .launch
        case .snapshot: .snapshot
        case .stop: .stop
        case .countPoints: .countPoints
        case .suspend: .suspend
        case .resume: .resume
        case .suspendWhileSaving: .suspendWhileSaving
        case .perform: .perform
        case .probe: .probe
        case .arm: .arm
        case .disarm: .disarm
        case .trackWrites: .trackWrites
        case .powerLoss: .powerLoss
        case .peerWrite: .peerWrite
        }
    }

    /// The action, probe or fault it names, if any.
    package var name: String? {
        switch ask {
        case let .perform(name, _), let .probe(name): name
        case let .arm(fault): fault.id
        case let .disarm(id): id
        default: nil
        }
    }

    /// A request of a known op without a field its op needs: answered with its id.
    package struct Malformed: Error, CustomStringConvertible {
        package var id: Int
        package var description: String
    }

    private enum Field: String, CodingKey { case id, op, name, arguments, fault, powerLoss, torn, seam, peerWrite }

    package init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Field.self)
        let id = try fields.decode(Int.self, forKey: .id)
        let op = try fields.decode(WorkerOperation.self, forKey: .op)
        func needed<Value: Decodable>(_ field: Field) throws -> Value {
            guard let value = try fields.decodeIfPresent(Value.self, forKey: field) else {
                throw Malformed(id: id, description: "\(op.rawValue) without a \(field == .powerLoss ? "power-loss order" : field.rawValue)")
            }
            return value
        }
        self.id = id
        switch op {
        case .describe: ask = .describe
        case .launch: ask = .launch
        case .snapshot: ask = .snapshot
        case .stop: ask = .stop
        case .countPoints: ask = .countPoints
        case .suspend: ask = .suspend
        case .resume: ask = .resume
        case .suspendWhileSaving: ask = .suspendWhileSaving
        case .perform: ask = .perform(try needed(.name), arguments: try fields.decodeIfPresent([String: ScenarioValue].self, forKey: .arguments) ?? [:])
        case .probe: ask = .probe(try needed(.name))
        case .arm: ask = .arm(try needed(.fault))
        case .disarm: ask = .disarm(try fields.decodeIfPresent(String.self, forKey: .name))
        case .trackWrites:
            ask = .trackWrites(torn: try fields.decodeIfPresent(Bool.self, forKey: .torn) ?? false,
                               seam: try fields.decodeIfPresent(StorageSeam.self, forKey: .seam))
        case .powerLoss: ask = .powerLoss(try needed(.powerLoss))
        case .peerWrite: ask = .peerWrite(try needed(.peerWrite))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Field.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(op, forKey: .op)
        switch ask {
        case .describe, .launch, .snapshot, .stop, .countPoints, .suspend, .resume, .suspendWhileSaving: break
        case let .perform(name, arguments):
            try fields.encode(name, forKey: .name)
            try fields.encode(arguments, forKey: .arguments)
        case let .probe(name): try fields.encode(name, forKey: .name)
        case let .arm(fault): try fields.encode(fault, forKey: .fault)
        case let .disarm(id): try fields.encodeIfPresent(id, forKey: .name)
        case let .trackWrites(torn, seam):
            try fields.encode(torn, forKey: .torn)
            try fields.encodeIfPresent(seam, forKey: .seam)
        case let .powerLoss(order): try fields.encode(order, forKey: .powerLoss)
        case let .peerWrite(order): try fields.encode(order, forKey: .peerWrite)
        }
    }
}
