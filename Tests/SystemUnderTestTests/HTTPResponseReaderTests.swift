import Foundation
import Testing
@testable import SystemUnderTest

/// The app reads its own HTTP answers: every byte sequence a faulty network can hand
/// it — cut anywhere, sliced small, garbage — gives an answer or a problem in words,
/// never a trap.
extension SystemUnderTestSuite {
    @Suite struct HTTPResponseReading {
        static let answer = Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\":\"bcd\"}".utf8)

        @Test func aWholeAnswerIsRead() {
            #expect(HTTPResponseReader.read(Self.answer, ended: false)
                == .complete(.init(status: 200, body: Data("{\"a\":\"bcd\"}".utf8))))
        }

        @Test func everyCutOfTheAnswerIsNeedMoreThenAProblemNeverATrap() {
            for length in 0..<Self.answer.count {
                let prefix = Self.answer.prefix(length)
                #expect(HTTPResponseReader.read(prefix, ended: false) == .needMore, "cut at \(length), still open")
                guard case let .malformed(problem) = HTTPResponseReader.read(prefix, ended: true) else {
                    Issue.record("cut at \(length) and closed: not reported as a problem")
                    continue
                }
                let headEnd = 71  // where "\r\n\r\n" ends in `answer`
                if length == 0 {
                    #expect(problem == "the connection closed before any answer")
                } else if length < headEnd {
                    #expect(problem == "the answer was cut inside its headers", "cut at \(length): \(problem)")
                } else {
                    #expect(problem.hasPrefix("the answer was cut in its body"), "cut at \(length): \(problem)")
                }
            }
        }

        @Test func withoutAContentLengthTheBodyRunsToTheClose() {
            let bytes = Data("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\nnope".utf8)
            #expect(HTTPResponseReader.read(bytes, ended: false) == .needMore)
            #expect(HTTPResponseReader.read(bytes, ended: true) == .complete(.init(status: 404, body: Data("nope".utf8))))
        }

        @Test(arguments: [
            ("garbage\r\n\r\n", "not an HTTP status line"),
            ("HTTP/1.1 99 Low\r\n\r\n", "not an HTTP status line"),
            ("HTTP/1.1 2000 OK\r\n\r\n", "not an HTTP status line"),
            ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "a header line without a colon"),
            ("HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n", "a Content-Length of '-4'"),
            ("HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\n", "a Content-Length of 'many'"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "a transfer encoding this client does not read"),
        ])
        func malformedAnswersAreNamed(text: String, problem: String) {
            guard case let .malformed(found) = HTTPResponseReader.read(Data(text.utf8), ended: false) else {
                Issue.record("\(text.debugDescription) was not malformed")
                return
            }
            #expect(found.hasPrefix(problem), "\(found)")
        }

        @Test func aHeadThatNeverEndsIsBounded() {
            let endless = Data(("HTTP/1.1 200 OK\r\n" + String(repeating: "X-Pad: 0123456789\r\n", count: 1_000)).utf8)
            guard case let .malformed(problem) = HTTPResponseReader.read(endless, ended: false) else {
                Issue.record("a 19 kB head was still awaited")
                return
            }
            #expect(problem.contains("header block over"))
        }

        @Test func randomBytesNeverTrap() {
            var state: UInt64 = 7
            for _ in 0..<2_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let count = Int(state >> 56)
                let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: (state >> UInt64($0 % 56)) ^ UInt64($0)) })
                _ = HTTPResponseReader.read(bytes, ended: state & 1 == 0)
                _ = HTTPResponseReader.read(Self.answer.prefix(40) + bytes, ended: true)
            }
        }
    }
}
