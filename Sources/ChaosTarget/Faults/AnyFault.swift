/// Any fault, as a step holds it.
package struct AnyFault: Sendable, Equatable, CustomStringConvertible {
    package let base: any Fault

    package init(_ base: any Fault) {
        self.base = base
    }

    package var kind: String { type(of: base).kind }
    package var family: FaultFamily { type(of: base).family }
    /// It stands until cleared (``Fault/stands``).
    package var stands: Bool { type(of: base).stands }
    package var label: String { base.label }
    package var description: String { label }

    /// The fault as a concrete kind, nil when it is another kind.
    package func `as`<F: Fault>(_ type: F.Type) -> F? { base as? F }

    package static func == (lhs: AnyFault, rhs: AnyFault) -> Bool {
        lhs.base.isEqual(to: rhs.base)
    }
}
