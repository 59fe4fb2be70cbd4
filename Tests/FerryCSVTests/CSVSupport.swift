import Foundation
import Testing

@testable import FerryCSV
@testable import FerryKit

/// The package root, found from this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The vendored corpora (Tests/Corpora); tests fail, never skip, when they are missing.
func corpus(_ name: String) throws -> URL {
    let folder = packageRoot.appendingPathComponent("Tests/Corpora/\(name)").standardized
    guard FileManager.default.fileExists(atPath: folder.path) else {
        throw CorpusMissing(path: folder.path)
    }
    return folder
}

struct CorpusMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "the vendored corpus folder \(path) is missing (Tests/Corpora)" }
}

/// Reads all records of CSV `text`, or the error that stopped it.
func readCSV(
    _ text: String, kind: RecordKind? = .generic, options: [String: String] = [:], codec: CSVCodec = .csv,
    step: Int? = nil
) -> (records: [Record], error: FerryError?, warnings: [FerryWarning]) {
    let bytes = Array(text.utf8)
    let input = MemoryInput(bytes, name: "test.csv", readSizes: step.map { size in { size } })
    let context = ReadContext(kind: kind, options: OptionValues(options))
    var records: [Record] = []
    do {
        let reader = try codec.makeReader(input, context: context)
        while let record = try reader.next() { records.append(record) }
        return (records, nil, context.takeWarnings())
    } catch {
        return (records, error, context.takeWarnings())
    }
}

/// Writes `records` as CSV.
func writeCSV(_ records: [Record], options: [String: String] = [:], codec: CSVCodec = .csv) throws -> String {
    let output = MemoryOutput()
    let writer = try codec.makeWriter(output, context: WriteContext(options: OptionValues(options)))
    for record in records { try writer.write(record) }
    try writer.finish()
    return output.text
}

/// A record's values as plain Swift values, for comparing with parsed JSON.
func plain(_ record: Record) -> [String: String?] {
    var result: [String: String?] = [:]
    for (name, value) in record.pairs {
        switch value {
        case .string(let text): result[name] = text
        case .null: result[name] = .some(nil)
        default: result[name] = "\(value)"
        }
    }
    return result
}
