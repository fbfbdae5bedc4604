internal import ChaosTarget

// ChaosTarget's place in a scenario file, by a name that does not clash with Swift
// Testing's `SourceLocation` (and `ChaosTarget.SourceLocation` names the protocol
// `ChaosTarget`, not the module): this file imports ChaosTarget alone.
typealias ScenarioLocation = SourceLocation
