import FerryTestSupport
import Foundation
import Testing

@testable import FerryCore
@testable import FerryKit

/// The kinds' schemas want a character other than white space in a
/// product's `name` and a book's `title` (`pattern: "\\S"`): a name of
/// spaces, tabs or U+3000 fails, in every path that checks it (the raw
/// records' check, the records' check, the halves, CSV to JSON's plan),
/// and an empty name is one error, empty (where Python's jsonschema also
/// names the pattern, which says no more).
@Suite struct BlankNameTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    /// Names, each with the code its record fails with (nil: valid).
    static let names: [(String, String?)] = [
        ("Widget", nil), ("\"   \"", "schema.pattern"), ("\" \t \"", "schema.pattern"), ("\u{3000}", "schema.pattern"),
        ("\u{A0}\u{2003}", "schema.pattern"), ("\"\"", "record.emptyField"), ("\" x \"", nil), ("Éclair", nil),
        ("\u{3000}x", nil),
    ]

    static func csv(rows: Int) -> String {
        var text = "sku,name,price\n"
        for index in 0..<rows { text += "S\(index),\(names[index % names.count].0),1\n" }
        return text
    }

    @Test(arguments: [Int.max, 0]) func aBlankNameFailsValidation(partsThreshold: Int) throws {
        let path = try scratch.write("p.csv", Self.csv(rows: 900))
        var options = ValidationOptions()
        options.partsThreshold = partsThreshold
        let report = Validator().validate([path], options: options)
        var expected: [String] = []
        for index in 0..<900 {
            for code in (Self.names[index % Self.names.count].1 ?? "").split(separator: " ") {
                expected.append("\(index) \(code)")
            }
        }
        let found = report.diagnostics.map { "\($0.location.record ?? -1) \($0.code.rawValue)" }
        #expect(found == expected)
        #expect(report.diagnostics.allSatisfy { $0.location.field == "name" })
        #expect(report.files.first.map { $0.partCount > 1 } == (partsThreshold == 0))
    }

    /// The records' check (`validate(_:at:)`) and the full one agree.
    @Test(arguments: ["   ", "\t", "\u{3000}", "", "x", " x", "Éclair"])
    func recordsCheckAgreesWithTheSchema(_ name: String) {
        var validator = RecordValidator(kind: .product)
        let record = Record([("name", .string(name)), ("price", .integer(1))])
        var first: FerryError?
        do throws(FerryError) { try validator.validate(record, at: .unknown) } catch { first = error }
        #expect(first?.code == RecordKind.product.schema.firstError(in: record, at: .unknown)?.code)
        #expect((first == nil) == !name.allSatisfy(\.isWhitespace))
    }

    /// CSV to JSON with the product kind refuses a blank name, though its
    /// plan lays plain rows out without the general path.
    @Test func conversionRefusesABlankName() throws {
        var text = "sku,name,price\n"
        for index in 0..<500 { text += "S\(index),Item \(index),1\n" }
        let input = try scratch.write("in.csv", text + "S500,\"  \",1\n")
        var options = ConversionOptions()
        options.kind = .product
        #expect {
            try Converter().convert(input, to: scratch.path("out.json"), options: options)
        } throws: { error in
            (error as? FerryError)?.code == .schemaPattern && (error as? FerryError)?.location.record == 500
        }
        let good = try scratch.write("good.csv", text)
        #expect(try Converter().convert(good, to: scratch.path("good.json"), options: options).records == 500)
    }
}
