// A target marks fault points in its app code: one `import ChaosTarget` gives it
// FaultPoints too (the points and the scoped faults of its unit tests; arming them is
// the worker host's business, through FaultPoints' package API).
@_exported import FaultPoints
