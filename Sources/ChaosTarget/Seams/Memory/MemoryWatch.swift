import Foundation
import Synchronization

/// The system's side of `memory-kill`, in the worker: a thread reads the process's
/// resident memory every millisecond and ends the process, as a power loss that keeps
/// every write (``PowerLoss/crashNow(mode:seed:)``), at the first reading past the bound.
///
/// The reading is the kernel's own (`/proc/self/statm`, resident pages), read with
/// plain `open`/`read` into a buffer on the stack: the watch allocates nothing while it
/// waits, so it never moves what it measures.
package enum MemoryWatch {
    /// Which watch runs: a new arm or a disarm ends the one before.
    private static let generation = Atomic<Int>(0)
    /// The page size statm counts in, asked once rather than at every reading.
    private static let pageSize = Int64(sysconf(Int32(_SC_PAGESIZE)))

    /// Starts watching for `bound` (a growth counted from now); ends any watch before.
    package static func arm(_ bound: MemoryBound, seed: UInt64) {
        let mine = generation.add(1, ordering: .sequentiallyConsistent).newValue
        guard let now = residentBytes() else { return }
        let limit = switch bound {
        case let .growth(bytes): now + bytes
        case let .above(bytes): bytes
        }
        Thread.detachNewThread {
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            while generation.load(ordering: .sequentiallyConsistent) == mine {
                if let resident = residentBytes(), resident > limit {
                    fflush(nil)
                    PowerLoss.crashNow(mode: .keep, seed: seed)
                }
                nanosleep(&pause, nil)
            }
        }
    }

    /// Calls off the watch, if one runs.
    package static func disarm() {
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    /// The process's resident memory in bytes, from `/proc/self/statm`; nil when it
    /// cannot be read.
    package static func residentBytes() -> Int64? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> Int64? in
            let count = read(fd, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            // "size resident shared ...": the second number, in pages.
            var field = 0
            var pages: Int64 = 0
            for byte in buffer.prefix(count) {
                if byte == UInt8(ascii: " ") {
                    if field == 1 { break }
                    field += 1
                } else if field == 1, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    pages = pages * 10 + Int64(byte - UInt8(ascii: "0"))
                }
            }
            return pages * pageSize
        }
    }
}
