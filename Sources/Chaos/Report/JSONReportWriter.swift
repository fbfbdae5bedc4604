import Foundation
import ChaosTarget

/// Writes and reads `chaos-report.json`: pretty-printed, keys sorted, every
/// optional an explicit `null`, so that two runs diff line by line.
///
/// ```swift
/// let data = try JSONReportWriter.data(report)
/// let again = try JSONReportWriter.read(from: url)
/// ```
package enum JSONReportWriter {
    package static func data(_ report: RunReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(report)
        data.append(0x0A)  // a text file ends with a newline
        return data
    }

    /// Reads a report this or an older Chaos wrote.
    ///
    /// - Throws: ``UnsupportedSchemaVersion`` for a report from a newer
    ///   schema, before it would fail on a field it does not know;
    ///   `DecodingError` for anything that is not a report.
    package static func read(from url: URL) throws -> RunReport {
        try decode(Data(contentsOf: url))
    }

    package static func decode(_ data: Data) throws -> RunReport {
        let decoder = JSONDecoder()
        if let header = try? decoder.decode(SchemaHeader.self, from: data),
            header.schemaVersion > RunReport.currentSchemaVersion {
            throw UnsupportedSchemaVersion(found: header.schemaVersion)
        }
        return try decoder.decode(RunReport.self, from: data)
    }

    /// A report written with a schema newer than this Chaos reads.
    package struct UnsupportedSchemaVersion: Error, Equatable, CustomStringConvertible {
        package var found: Int
        package var supported: Int { RunReport.currentSchemaVersion }

        package var description: String {
            "the report has schemaVersion \(found); this chaos reads up to \(supported): read it with a newer chaos"
        }
    }

    private struct SchemaHeader: Decodable {
        var schemaVersion: Int
    }
}
