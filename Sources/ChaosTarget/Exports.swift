// A target marks fault points in its app code and arms them through its host: one
// `import ChaosTarget` gives it FaultPoints too (and the seeded generator, SplitMix64,
// that the app and the framework share).
@_exported import FaultPoints
