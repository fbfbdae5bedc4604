extension Duration {
    /// The duration in whole milliseconds, truncated toward zero: what reports and
    /// timings print.
    public var wholeMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
