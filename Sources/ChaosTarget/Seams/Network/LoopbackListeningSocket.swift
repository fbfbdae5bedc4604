import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound to 127.0.0.1, made close-on-exec, for a SwiftNIO server to listen
/// on (`ServerBootstrap.withBoundSocket`).
///
/// SwiftNIO's own `bind(host:port:)` makes a socket without `SOCK_CLOEXEC`: any process
/// spawned while it is open — a Swift Testing exit test, a `Process` in the user's test
/// run, anything that closes only the descriptors above its own — inherits the
/// listening socket and keeps the port accepting after the server closed it. The fault
/// proxy's `network-down` must leave a refused port, and a stopped server no socket.
package enum LoopbackListeningSocket {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// A socket bound to 127.0.0.1:`port` (0: a free port), not yet listening.
    package static func bound(port: Int) throws(Failure) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let failure = errno
            close(fd)
            throw Failure(description: "bind 127.0.0.1:\(port): \(String(cString: strerror(failure)))")
        }
        return fd
    }
}
