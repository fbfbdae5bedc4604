import Testing
@testable import SystemUnderTest

extension SystemUnderTestSuite {
    /// Numbered file names sort as numbers: backups are chosen by their number.
    @Suite struct ZeroPadded {
        @Test(arguments: [(7, 4, "0007"), (0, 6, "000000"), (123_456, 6, "123456"), (1_234_567, 6, "1234567"), (28, 2, "28")])
        func padsToTheWidthAndNeverCuts(number: Int, width: Int, expected: String) {
            #expect(number.zeroPadded(width: width) == expected)
        }
    }
}
