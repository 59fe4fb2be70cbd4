@testable import FerryKit
import FerryTestSupport
import Testing

/// Each change a format forces on a value is said once per field, at the
/// first record it happens in, with how many values it touched; and the
/// options that avoid it (`--null`, `--nested json`) make the round trip
/// exact.
@Suite struct LossyConversionTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    /// Converts `input` into `output`, the way `path` asks for (records,
    /// raw records, or laid out when it can).
    func convert(
        _ input: String, to output: String, from: String? = nil, to format: String? = nil,
        codecOptions: [String: String] = [:], schema: Schema? = nil, rawRecords: Bool = true
    ) throws -> ConversionSummary {
        var options = ConversionOptions()
        options.from = from
        options.to = format
        options.overwrite = true
        options.schema = schema
        options.rawRecords = rawRecords
        options.codecOptions = OptionValues(codecOptions)
        do throws(FerryError) {
            return try Converter().convert(input, to: scratch.path(output), options: options)
        } catch {
            Issue.record("\(error)")
            throw error
        }
    }

    /// The losses as (code, field, count, record of the first).
    func tally(_ summary: ConversionSummary) -> [String] {
        summary.losses.map {
            "\($0.warning.code.rawValue) \($0.field) \($0.count) \($0.warning.location.record.map(String.init) ?? "-")"
        }
    }

    /// Three records: `n` null in two, `o` nested in two and null in one.
    static let records = """
        {"id":1,"n":null,"o":{"a":"x, \\"y\\"","b":[1,2.50]}}
        {"id":2,"n":null,"o":[1]}
        {"id":3,"n":"z","o":null}

        """
    /// `{"type": "object", "properties": {"id": {"type": "integer"}}}`
    static let idSchema = Value.object(
        OrderedObject([
            ("type", .string("object")),
            ("properties", .object(OrderedObject([("id", .object(OrderedObject([("type", .string("integer"))])))]))),
        ]))

    @Test(arguments: [true, false])
    func csvSaysNullsAndNestedValuesOncePerField(rawRecords: Bool) throws {
        let input = try scratch.write("in.jsonl", Self.records)
        let summary = try convert(input, to: "out.csv", rawRecords: rawRecords)
        #expect(summary.warnings.isEmpty)
        #expect(
            tally(summary) == [
                "csv.nullAsEmpty n 2 0", "csv.nestedAsJSON o 2 0", "csv.nullAsEmpty o 1 2",
            ])
        #expect(summary.losses.map(\.warning.arguments) == [[.string("n")], [.string("o")], [.string("o")]])
    }

    @Test(arguments: [true, false])
    func nullTextAndNestedJSONMakeTheRoundTripExact(rawRecords: Bool) throws {
        let input = try scratch.write("in.jsonl", Self.records)
        let schema = try Schema(document: Self.idSchema, source: "id.json")
        let options = ["null": #"\N"#, "nested": "json"]
        for format in ["csv", "tsv"] {
            let there = try convert(input, to: "out.\(format)", codecOptions: options, schema: schema, rawRecords: rawRecords)
            #expect(there.losses.isEmpty, "\(format)")
            let back = try convert(
                scratch.path("out.\(format)"), to: "back.jsonl", codecOptions: options, schema: schema, rawRecords: rawRecords)
            #expect(back.losses.isEmpty)
            #expect(String(decoding: try scratch.read("back.jsonl"), as: UTF8.self) == Self.records, "\(format)")
        }
    }

    /// A typed column reads an empty cell back as null: nothing is lost.
    @Test func nullInATypedColumnIsNotALoss() throws {
        let input = try scratch.write("in.jsonl", "{\"name\":\"a\",\"price\":null}\n{\"name\":\"b\",\"price\":1}\n")
        let summary = try convert(input, to: "out.csv")
        #expect(summary.losses.isEmpty)
    }

    /// Plists have no null: 2,000 of 3,000 records lose a field, said once
    /// per field and counted.
    @Test(arguments: ["plist", "plist-xml"])
    func plistsSayTheNullsTheyLeaveOut(_ format: String) throws {
        var text = ""
        for index in 0..<3000 {
            text += index % 3 == 0 ? "{\"id\":\(index),\"note\":\"x\"}\n" : "{\"id\":\(index),\"note\":null}\n"
        }
        let input = try scratch.write("many.jsonl", text)
        let summary = try convert(input, to: "out", to: format)
        #expect(tally(summary) == ["convert.nullDropped note 2000 1"])
    }

    /// Repeated names in an object: the last value is kept, and the name is
    /// said once with how many objects repeated it.
    @Test(arguments: [true, false])
    func duplicateNamesAreCounted(rawRecords: Bool) throws {
        let input = try scratch.write(
            "dup.json", #"[{"a":1,"a":2},{"a":1,"b":{"c":1,"c":2}},{"a":3,"a":4}]"#)
        let summary = try convert(input, to: "out.jsonl", rawRecords: rawRecords)
        #expect(tally(summary) == ["json.duplicateName a 2 0", "json.duplicateName c 1 1"])
        #expect(
            String(decoding: try scratch.read("out.jsonl"), as: UTF8.self)
                == "{\"a\":2}\n{\"a\":1,\"b\":{\"c\":2}}\n{\"a\":4}\n")
    }

    /// Numbers past what a binary plist holds: counted per field.
    @Test func roundedNumbersAreCounted() throws {
        let input = try scratch.write("big.jsonl", "{\"n\":1e400}\n{\"n\":2e400}\n{\"n\":1.10}\n")
        let summary = try convert(input, to: "out.plist")
        #expect(tally(summary) == ["convert.numberRounded n 2 0"])
        #expect(summary.losses.first?.warning.arguments == [.string("1e400"), .string("1.7976931348623157e+308")])
    }
}

/// `--decimal-comma`: typed numbers as European spreadsheets write them.
@Suite struct DecimalCommaTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    func convert(_ input: String, to output: String, options: [String: String], rawRecords: Bool) throws {
        var conversion = ConversionOptions()
        conversion.overwrite = true
        conversion.rawRecords = rawRecords
        conversion.codecOptions = OptionValues(options)
        do throws(FerryError) {
            _ = try Converter().convert(input, to: scratch.path(output), options: conversion)
        } catch {
            Issue.record("\(error)")
            throw error
        }
    }

    @Test(arguments: [true, false])
    func readsAndWritesCommas(rawRecords: Bool) throws {
        let csv = "name;price;sku\nWii;1,50;GS-1\nDS;7;GS-2\nPad;1,10;GS-3\n"
        let input = try scratch.write("in.csv", csv)
        let options = ["delimiter": ";", "decimal-comma": ""]
        try convert(input, to: "out.jsonl", options: options, rawRecords: rawRecords)
        #expect(
            String(decoding: try scratch.read("out.jsonl"), as: UTF8.self)
                == "{\"name\":\"Wii\",\"price\":1.50,\"sku\":\"GS-1\"}\n{\"name\":\"DS\",\"price\":7,\"sku\":\"GS-2\"}\n"
                + "{\"name\":\"Pad\",\"price\":1.10,\"sku\":\"GS-3\"}\n")
        try convert(scratch.path("out.jsonl"), to: "back.csv", options: options, rawRecords: rawRecords)
        #expect(
            String(decoding: try scratch.read("back.csv"), as: UTF8.self)
                == "name;price;sku\nWii;1,50;GS-1\nDS;7;GS-2\nPad;1,10;GS-3\n")
    }

    /// With a comma delimiter, a decimal comma is quoted.
    @Test func aCommaDelimiterQuotesIt() throws {
        let input = try scratch.write("in.jsonl", "{\"name\":\"Wii\",\"price\":84.99}\n")
        try convert(input, to: "out.csv", options: ["decimal-comma": ""], rawRecords: true)
        #expect(String(decoding: try scratch.read("out.csv"), as: UTF8.self) == "name,price\nWii,\"84,99\"\n")
    }
}
