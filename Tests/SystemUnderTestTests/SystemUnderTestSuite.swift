import Testing

/// Every test of this target runs one after another: fault points are process-global,
/// and a point armed by one test must not fire in another.
@Suite(.serialized) struct SystemUnderTestSuite {}
