import Foundation
import Testing
@testable import Chaos

/// The crash reports users hold, read into a site and a message: the Swift runtime's
/// Linux backtrace, Apple's `.crash` text, and its `.ips` JSON.
@Suite struct CrashSignatureTests {
    static let appleText = """
        Incident Identifier: 5D4D5E44-2C0A-4B8A-9B7B-3C2B1A0F9E11
        Hardware Model:      iPhone15,2
        Process:             Favourites [4821]
        Exception Type:  EXC_BREAKPOINT (SIGTRAP)
        Exception Codes: 0x0000000000000001, 0x00000001a4c2b8c4
        Termination Reason: SIGNAL 5 Trace/BPT trap: 5
        Triggered by Thread:  0

        Application Specific Information:
        Favourites/LegacyFavoritesDataSource.swift:14: Fatal error: "The operation couldn’t be completed."

        Thread 0 name:  Dispatch queue: com.apple.main-thread
        Thread 0 Crashed:
        0   libswiftCore.dylib            \t0x00000001a4c2b8c4 _assertionFailure(_:_:file:line:flags:) + 268 (AssertCommon.swift:144)
        1   Favourites                    \t0x0000000100a4c2f8 closure #1 in LegacyFavoritesDataSource.fetchAll() + 204 (LegacyFavoritesDataSource.swift:14)
        2   Favourites                    \t0x0000000100a4b1d0 FavoritesRepository.fetchAll() + 88 (FavoritesRepository.swift:31)
        3   libswift_Concurrency.dylib    \t0x00000001b2c3d4e0 completeTaskWithClosure(swift::AsyncContext*, swift::SwiftError*) + 1

        Thread 1:
        0   libsystem_kernel.dylib        \t0x00000001e9d8c1a4 __workq_kernreturn + 8
        """

    static let ips = """
        {"app_name":"Favourites","bug_type":"309","os_version":"iPhone OS 17.4 (21E219)","name":"Favourites"}
        {
          "exception" : {"type":"EXC_BREAKPOINT","signal":"SIGTRAP","codes":"0x0000000000000001"},
          "faultingThread" : 0,
          "asi" : {"libswiftCore.dylib":["Favourites/LegacyFavoritesDataSource.swift:14: Fatal error: \\"The operation couldn’t be completed.\\""]},
          "usedImages" : [{"name":"libswiftCore.dylib","path":"/usr/lib/swift/libswiftCore.dylib"},{"name":"Favourites","path":"/private/var/containers/Bundle/Application/X/Favourites.app/Favourites"}],
          "threads" : [{"triggered":true,"frames":[
            {"imageIndex":0,"symbol":"_assertionFailure(_:_:file:line:flags:)","sourceFile":"AssertCommon.swift","sourceLine":144},
            {"imageIndex":1,"symbol":"closure #1 in LegacyFavoritesDataSource.fetchAll()","sourceFile":"LegacyFavoritesDataSource.swift","sourceLine":14},
            {"imageIndex":1,"symbol":"FavoritesRepository.fetchAll()","sourceFile":"FavoritesRepository.swift","sourceLine":31}]}]
        }
        """

    @Test func anAppleCrashReportGivesTheAppsFrameAndTheMessageWithoutQuotes() {
        let signature = CrashSignature(log: Self.appleText)
        #expect(signature.site == "LegacyFavoritesDataSource.swift:14")
        #expect(signature.message == "The operation couldn’t be completed.")
    }

    @Test func anIPSReportGivesTheSame() {
        let signature = CrashSignature(log: Self.ips)
        #expect(signature.site == "LegacyFavoritesDataSource.swift:14")
        #expect(signature.message == "The operation couldn’t be completed.")
    }

    @Test func anIPSReportOfAnotherKindIsNotReadAsACrash() {
        let hang = Self.ips.replacingOccurrences(of: "\"bug_type\":\"309\"", with: "\"bug_type\":\"298\"")
        #expect(AppleCrashReport.signature(hang) == nil)
    }

    @Test func aLinuxBacktraceStillReads() {
        let log = """
            chaos_example_notes/FragileNotesRepository.swift:13: Fatal error: 'try!' expression unexpectedly raised an error
            💣 Program crashed: System trap at 0x00007f28b0af9361
            0 0x00007f28b0af9361 FragileNotesRepository.init(path:) in chaos-example-notes at /src/Examples/Notes/Sources/FragileNotesRepository.swift:13:25
            """
        let signature = CrashSignature(log: log)
        #expect(signature.site == "FragileNotesRepository.swift:13")
        #expect(signature.message == "'try!' expression unexpectedly raised an error")
    }

    @Test func matchesAreRankedSiteAndMessageThenSiteThenMessage() {
        let signature = CrashSignature(site: "A.swift:1", message: "boom")
        #expect(signature.match(TrapRecord(signal: 4, signalName: "SIGILL", message: "boom", site: "A.swift:1")) == .siteAndMessage)
        #expect(signature.match(TrapRecord(signal: 4, signalName: "SIGILL", message: "other", site: "A.swift:1")) == .site)
        #expect(signature.match(TrapRecord(signal: 4, signalName: "SIGILL", message: "\"boom\"", site: "B.swift:2")) == .message)
        #expect(signature.match(TrapRecord(signal: 4, signalName: "SIGILL", message: "other", site: "B.swift:2")) == nil)
        #expect(CrashMatch.siteAndMessage > .site && CrashMatch.site > .message)
    }
}
