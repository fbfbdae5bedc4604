import Foundation

/// Reads an HTTP/1.1 answer from the bytes received so far: the status line, the
/// header block, then a `Content-Length` body or, without one, everything up to the
/// end of the connection (the client always asks for `Connection: close`).
///
/// Pure and total: any byte sequence gives an answer, "need more", or a problem with
/// words — never a trap. Cut-short answers are the normal case under network faults
/// (`slicer`, `limit-data`, `reset-peer`), and FoundationNetworking's URLSession on
/// Linux traps on one cut inside its headers (swift-corelibs-foundation#5285), which is
/// why the app reads its answers itself.
struct HTTPResponseReader {
    /// An answer read whole.
    struct Answer: Equatable {
        var status: Int
        var body: Data
    }

    enum Reading: Equatable {
        /// Keep reading; the answer is not complete yet.
        case needMore
        case complete(Answer)
        /// The bytes are not an HTTP answer this client understands.
        case malformed(String)
    }

    /// A bound on the header block: an answer whose head never ends is not one.
    static let maximumHeadBytes = 16 * 1024

    private static let headEnd = Data("\r\n\r\n".utf8)

    /// What `received` amounts to; `ended` says the peer closed the connection.
    static func read(_ received: Data, ended: Bool) -> Reading {
        guard let endOfHead = received.range(of: headEnd) else {
            if received.count > maximumHeadBytes { return .malformed("a header block over \(maximumHeadBytes) bytes") }
            return ended ? .malformed(received.isEmpty ? "the connection closed before any answer"
                                                        : "the answer was cut inside its headers") : .needMore
        }
        let head = String(decoding: received[received.startIndex..<endOfHead.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = statusCode(statusLine) else {
            return .malformed("not an HTTP status line: \(lines.first?.prefix(80) ?? "")")
        }
        var contentLength: Int?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return .malformed("a header line without a colon") }
            let name = line[line.startIndex..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-length":
                guard let length = Int(value), length >= 0 else { return .malformed("a Content-Length of '\(value)'") }
                contentLength = length
            case "transfer-encoding" where value.lowercased() != "identity":
                return .malformed("a transfer encoding this client does not read (\(value))")
            default:
                break
            }
        }
        let body = received[endOfHead.upperBound...]
        if let contentLength {
            if body.count >= contentLength {
                return .complete(Answer(status: status, body: Data(body.prefix(contentLength))))
            }
            return ended ? .malformed("the answer was cut in its body (\(body.count) of \(contentLength) bytes)") : .needMore
        }
        return ended ? .complete(Answer(status: status, body: Data(body))) : .needMore
    }

    /// `HTTP/1.1 200 OK` → 200.
    private static func statusCode(_ line: String) -> Int? {
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0].hasPrefix("HTTP/1."), words[1].count == 3,
              let code = Int(words[1]), (100...599).contains(code) else { return nil }
        return code
    }
}
