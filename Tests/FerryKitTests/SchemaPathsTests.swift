import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// A rule changed in a schema changes what every path accepts: records, raw
/// records and rows the CSV reader lays out itself (`ConversionOptions.schema`).
extension RawRecordTests {
    /// The built-in product schema with `change` made to property `field`.
    static func productSchema(changing field: String, _ change: (inout OrderedObject) -> Void) throws -> Schema {
        guard case .object(var root) = RecordKind.product.schema.document,
            case .object(var properties)? = root["properties"], case .object(var property)? = properties[field]
        else { throw FerryError(.schemaInvalidKeyword) }
        change(&property)
        properties[field] = .object(property)
        root["properties"] = .object(properties)
        return try Schema(document: .object(root), source: "changed")
    }

    /// A changed rule, rows that keep it, and a row that breaks it.
    struct RuleChange: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let field: String
        let keyword: String
        let limit: Value
        /// The product cells of each column (name, price, photo, sku), all within the rule.
        let cells: [[String]]
        let badRow: String
        let code: FerryError.Code
        let arguments: [MessageArgument]
    }

    static let ruleChanges: [RuleChange] = [
        RuleChange(
            testDescription: "price minimum 10", field: "price", keyword: "minimum", limit: .integer(10),
            cells: [productCells[0], ["299.00", "269", "19.99", "84.9", "84.90", "10", "12345678901234.5", ""],
                    productCells[2], productCells[3]],
            badRow: "Cheap,5,,GS-1", code: .schemaMinimum, arguments: [.string("price"), .integer(10)]),
        RuleChange(
            testDescription: "name maxLength 5", field: "name", keyword: "maxLength", limit: .integer(5),
            cells: [["Wii", "Xbox", "Café", "Ünï 🎮", #""A, b""#, #""q""q""#, "x\ty"], productCells[1], productCells[2],
                    productCells[3]],
            badRow: "Wireless Controller,19.99,,GS-1", code: .schemaMaxLength, arguments: [.string("name"), .integer(5)]),
        RuleChange(
            testDescription: "sku pattern", field: "sku", keyword: "pattern", limit: .string("^GS-[0-9]+$"),
            cells: [productCells[0], productCells[1], productCells[2], ["GS-0000001", "", "GS-7"]],
            badRow: "Wii,1,,00123", code: .schemaPattern, arguments: [.string("sku"), .string("^GS-[0-9]+$")]),
        // Applicators: the field goes to the full check on every path, and
        // anyOf reports its closest branch's error.
        RuleChange(
            testDescription: "sku anyOf", field: "sku", keyword: "anyOf",
            limit: .array([
                .object(OrderedObject([("pattern", .string("^GS-"))])),
                .object(OrderedObject([("maxLength", .integer(2))])),
            ]),
            cells: [productCells[0], productCells[1], productCells[2], ["GS-0000001", "", "GS-7"]],
            badRow: "Wii,1,,00123", code: .schemaPattern, arguments: [.string("sku"), .string("^GS-")]),
        RuleChange(
            testDescription: "name not", field: "name", keyword: "not",
            limit: .object(OrderedObject([("const", .string("Forbidden"))])),
            cells: [productCells[0], productCells[1], productCells[2], productCells[3]],
            badRow: "Forbidden,19.99,,GS-1", code: .schemaNot, arguments: [.string("name")]),
    ]

    @Test(arguments: ruleChanges) func changedRuleIsObeyedEveryWay(_ change: RuleChange) throws {
        let schema = try Self.productSchema(changing: change.field) { $0[change.keyword] = change.limit }
        #expect(schema.rule(for: change.field)?.hasOtherConstraints == true)
        // Rows within the rule: the same output each way (about 1 MB, for
        // the simple rows and the reader's two threads).
        let good = try scratch.write(
            "good.csv", Self.mixedRows(header: Self.productHeader, cells: change.cells, rows: 30_000, seed: 11))
        let passed = convert(good, to: "jsonl", kind: .product, codecOptions: [:], path: .records, schema: schema)
        guard case .converted(_, let records, _, _) = passed else {
            Issue.record("\(passed)")
            return
        }
        #expect(records == 30_000)
        for path in [Path.raw, .laidOut] {
            #expect(convert(good, to: "jsonl", kind: .product, codecOptions: [:], path: path, schema: schema) == passed)
        }
        // A row that breaks it deep in the file: the same error each way,
        // and none under the built-in schema.
        let bad = try scratch.write(
            "bad.csv",
            Self.mixedRows(
                header: Self.productHeader, cells: change.cells, rows: 30_000, seed: 12, bad: (change.badRow, 20_000)))
        let failed = convert(bad, to: "jsonl", kind: .product, codecOptions: [:], path: .records, schema: schema)
        for path in Path.allCases {
            let outcome = convert(bad, to: "jsonl", kind: .product, codecOptions: [:], path: path, schema: schema)
            #expect(outcome == failed, "\(path)")
            guard case .failed(let error) = outcome else {
                Issue.record("\(path): \(outcome)")
                continue
            }
            #expect(error.code == change.code, "\(path)")
            #expect(error.arguments == change.arguments, "\(path)")
            #expect(error.location.record == 20_000, "\(path)")
            #expect(error.location.field == change.field, "\(path)")
            #expect(error.location.line != nil, "\(path)")
            let builtIn = convert(bad, to: "jsonl", kind: .product, codecOptions: [:], path: path)
            guard case .converted(_, 30_000, _, _) = builtIn else {
                Issue.record("\(path), built-in schema: \(builtIn)")
                continue
            }
        }
    }

    /// A price with no minimum: negative prices pass every way, the rows
    /// laid out with them included.
    @Test func priceWithoutAMinimumTakesNegativeNumbers() throws {
        let schema = try Self.productSchema(changing: "price") { $0["minimum"] = nil }
        #expect(schema.rule(for: "price") == ColumnRule(type: .number))
        let cells = [
            Self.productCells[0], ["-1", "-84.99", "-0.5", "-0", "-007", "-1e3", "269", "-12345678901234.5", "-0.0", ""],
            Self.productCells[2], Self.productCells[3],
        ]
        let input = try scratch.write(
            "signed.csv", Self.mixedRows(header: Self.productHeader, cells: cells, rows: 20_000, seed: 13))
        let outcome = convert(input, to: "jsonl", kind: .product, codecOptions: [:], path: .laidOut, schema: schema)
        guard case .converted(let output, 20_000, _, _) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains(#""price":-84.99"#))
        #expect(text.contains(#""price":-0,"#))  // -0 keeps its sign, as written
        expectSameBothWays(input, kinds: [.product], schema: schema)
        // The built-in schema refuses them each way.
        for path in Path.allCases {
            guard case .failed(let error) = convert(input, to: "jsonl", kind: .product, codecOptions: [:], path: path)
            else {
                Issue.record("\(path): negative prices passed the built-in schema")
                continue
            }
            #expect(error.code == .recordNegative)
        }
    }

    /// An empty quoted sku (an empty string, where an empty cell is null)
    /// breaks the product schema's `minLength: 1` each way.
    @Test func emptyQuotedSkuIsRefusedEveryWay() throws {
        let input = try scratch.write(
            "sku.csv",
            Self.mixedRows(
                header: Self.productHeader, cells: Self.productCellsWithoutEmptyQuotedSku, rows: 6000, seed: 14,
                bad: (#"Wii,1,,"""#, 4000)))
        for path in Path.allCases {
            guard case .failed(let error) = convert(input, to: "json", kind: nil, codecOptions: [:], path: path) else {
                Issue.record("\(path): the empty sku passed")
                continue
            }
            #expect(error.code == .schemaMinLength, "\(path)")
            #expect(error.location.record == 4000, "\(path)")
            #expect(error.location.field == "sku", "\(path)")
        }
    }

    static let productCellsWithoutEmptyQuotedSku = [productCells[0], productCells[1], productCells[2], ["GS-1", ""]]

    /// A caller's schema types CSV columns the kind does not know.
    @Test func callersSchemaTypesCSVColumns() throws {
        let schema = try JSONValues.schema(
            #"{"required": ["name"], "properties": {"name": {"type": "string"}, "qty": {"type": "integer"}, "ok": {"type": "boolean"}}}"#)
        let input = try scratch.write("qty.csv", "name,qty,ok,note\nA,3,yes,x\nB,,no,\n")
        let outcome = convert(input, to: "jsonl", kind: nil, codecOptions: [:], path: .laidOut, schema: schema)
        guard case .converted(let output, 2, _, _) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(
            String(decoding: output, as: UTF8.self)
                == #"{"name":"A","qty":3,"ok":true,"note":"x"}"# + "\n" + #"{"name":"B","qty":null,"ok":false,"note":""}"# + "\n")
        expectSameBothWays(input, schema: schema)
        let wrong = try scratch.write("qty-wrong.csv", "name,qty\nA,3\nB,x\n")
        guard case .failed(let error) = convert(wrong, to: "jsonl", kind: nil, codecOptions: [:], path: .laidOut, schema: schema)
        else {
            Issue.record("qty x passed")
            return
        }
        #expect(error.code == .csvInvalidInteger)
        #expect(error.location.record == 1)
    }
}
