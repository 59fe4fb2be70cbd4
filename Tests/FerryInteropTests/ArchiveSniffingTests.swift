import Foundation
import Testing

/// An archive is known by the `$archiver` key near its start, within the
/// 4 KiB Ferry sniffs. NSKeyedArchiver and plistlib write the top dictionary
/// first; Ferry's own archives must be recognized too, whatever their size.
@Suite struct ArchiveSniffingTests {
    /// 60 products with photos make an archive of about 20 KB, whose
    /// `$archiver` Ferry writes last, near the end. Read without
    /// `--from`, it must give the products back, not the archive's raw
    /// object table as one generic record.
    @Test(arguments: ["archive", "nskeyedarchive"])
    func largeFerryArchiveIsReadAsAnArchive(fileExtension: String) throws {
        let folder = try ScratchFolder()
        let products = try ExampleData.products().map(\.productInJSON)
        let many: Typed = .array((0..<20).flatMap { _ in products })
        try folder.write("many.json", Array(try Self.jsonText(many).utf8))
        try Ferry.convert([folder.path("many.json"), folder.path("many.\(fileExtension)"), "--to", "archive"])

        let forced = folder.path("forced.json")
        try Ferry.convert([folder.path("many.\(fileExtension)"), forced, "--from", "archive"])
        expectSame(try PythonReader.describe("json", forced), many, "with --from archive")

        let sniffed = folder.path("sniffed.json")
        try Ferry.convert([folder.path("many.\(fileExtension)"), sniffed])
        let back = try PythonReader.describe("json", sniffed)
        #expect(back.elements.count == 60, "read as \(back.elements.count) record(s) with keys \(back[0]?.keys ?? [])")
        expectSame(back, many, "sniffed")
    }

    /// JSON text for the strings, doubles and arrays of products.
    static func jsonText(_ value: Typed) throws -> String {
        switch value {
        case .string(let text):
            return String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst()
                .dropLast().description
        case .float(let number): return "\(number)"
        case .array(let elements): return "[" + (try elements.map(jsonText)).joined(separator: ",") + "]"
        case .dict(let pairs):
            return "{" + (try pairs.map { try jsonText(.string($0.0)) + ":" + jsonText($0.1) }).joined(separator: ",")
                + "}"
        default: throw UnexpectedObject(description: "\(value)")
        }
    }
}
