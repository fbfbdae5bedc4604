/// Any fault, as a step holds it.
public struct AnyFault: Sendable, Equatable, CustomStringConvertible {
    public let base: any Fault

    public init(_ base: any Fault) {
        self.base = base
    }

    public var kind: String { type(of: base).kind }
    public var family: FaultFamily { type(of: base).family }
    public var label: String { base.label }
    public var description: String { label }

    /// The fault as a concrete kind, nil when it is another kind.
    public func `as`<F: Fault>(_ type: F.Type) -> F? { base as? F }

    public static func == (lhs: AnyFault, rhs: AnyFault) -> Bool {
        lhs.base.isEqual(to: rhs.base)
    }
}
