extension StorageFaultRule {
    /// The VFS rule that carries out a storage fault of a scenario (its trigger's `on`
    /// chooses the file; `any` when not written).
    init?(fault: AnyFault, trigger: Trigger, seed: UInt64) {
        let on = trigger.on ?? .any
        switch fault.base {
        case let diskFull as DiskFullFault:
            self.init(kind: .diskFull, operation: .write, on: on, afterBytes: diskFull.afterBytes,
                      latencyMs: nil, jitterMs: nil, trigger: trigger, seed: seed)
        case let ioError as IOErrorFault:
            guard let operation = Operation(rawValue: ioError.operation) else { return nil }
            self.init(kind: .ioError, operation: operation, on: on, afterBytes: nil,
                      latencyMs: nil, jitterMs: nil, trigger: trigger, seed: seed)
        case let slow as SlowIOFault:
            self.init(kind: .slowIO, operation: nil, on: on, afterBytes: nil,
                      latencyMs: Self.milliseconds(slow.latency), jitterMs: Self.milliseconds(slow.jitter),
                      trigger: trigger, seed: seed)
        case is BusyFault:
            self.init(kind: .busy, operation: .lock, on: on, afterBytes: nil,
                      latencyMs: nil, jitterMs: nil, trigger: trigger, seed: seed)
        default:
            return nil
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
