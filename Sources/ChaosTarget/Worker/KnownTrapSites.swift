internal import CTrapSites
import Foundation

/// Traps whose backtrace the controller already holds (`CHAOS_KNOWN_TRAP_SITES`: their
/// keys). Every trap of a worker that was given the variable first writes its key — the
/// trapping instruction and the calls that led to it, as offsets in their images,
/// hashed — and goes on to the Swift runtime's backtracer; a trap whose key is known
/// ends the worker by the same signal with one line on stderr instead, without the
/// backtracer: tens of milliseconds a trap, in a hunt that traps hundreds of times at a
/// few sites.
///
///     chaos: trap: key 9c1d0e5f2a3b4c6d in /path/to/app
///     chaos: trap at a known site: signal 4 key 9c1d0e5f2a3b4c6d in /path/to/app
package enum KnownTrapSites {
    package static let variable = "CHAOS_KNOWN_TRAP_SITES"
    package static let knownMarker = CHAOS_TRAP_SITES_MARKER
    package static let keyMarker = CHAOS_TRAP_KEY_MARKER

    /// Installs the handler when the controller asked for it (the variable set, maybe empty).
    static func installIfAsked() {
        guard let list = getenv(variable) else { return }
        _ = chaos_trap_sites_install(list)
    }

    /// Whether a trap of this process is being handled (its key written, its backtrace
    /// being made): a test app traps a second thread only then, as a dependency's `deinit`
    /// may on its pool's thread while the app's `fatalError` is unwound.
    package static var isHandlingATrap: Bool { chaos_trap_sites_handling() != 0 }

    /// One of the two lines: the key, the executable, and whether the trap was known.
    package struct Line: Equatable {
        package var key: UInt64
        package var executable: String
        package var known: Bool

        package init(key: UInt64, executable: String, known: Bool) {
            self.key = key
            self.executable = executable
            self.known = known
        }
    }

    package static func parse(_ line: Substring) -> Line? {
        let known = line.hasPrefix(knownMarker)
        guard known || line.hasPrefix(keyMarker) else { return nil }
        var words = line.dropFirst(known ? knownMarker.count : keyMarker.count).split(separator: " ", maxSplits: known ? 5 : 3)
        if known {
            guard words.count == 6, words[0] == "signal", Int32(words[1]) != nil else { return nil }
            words.removeFirst(2)
        }
        guard words.count == 4, words[0] == "key", let key = UInt64(words[1], radix: 16), words[2] == "in" else { return nil }
        return Line(key: key, executable: String(words[3]), known: known)
    }
}
