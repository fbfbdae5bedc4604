import Foundation
import Synchronization

/// The worker's stdout: protocol lines only, one whole line at a time. Replies come
/// from the main actor, events also from SQLite's and the app's own threads (a fault
/// fires wherever it is hit), so every line is written under one lock, with one
/// `write(2)` loop and no stdio buffer: a child's buffered output is lost when it traps.
package enum WorkerOutput {
    private static let lock = Mutex(())

    package static func write<Value: Encodable>(_ value: Value) {
        if var event = value as? WorkerEvent, event.io == nil, PowerLoss.stampsEvents.withLock({ $0 }) {
            let stats = PowerLoss.stats()
            event.io = [stats.writes, stats.syncs]
            return write(event)
        }
        var data: Data
        if let line = (value as? WorkerEvent)?.plainLine {
            data = Data(line.utf8)
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let encoded = try? encoder.encode(value) else { return }
            data = encoded
        }
        data.append(UInt8(ascii: "\n"))
        lock.withLock { _ in
            data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }
}
