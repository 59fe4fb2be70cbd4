#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FerryJSON
import FerryKit
import Testing

/// The three layouts of the writer, key order, and values JSON has no type for.
@Suite struct WriterStyleTests {
    static let records = [
        Record([
            ("name", .string("Wii")), ("price", .double(269.0)), ("tags", .array([.integer(1), .bool(true), .null])),
            ("meta", .object(OrderedObject([("z", .array([])), ("a", .object(OrderedObject()))]))),
        ]),
        Record([("zeta", .integer(2)), ("alpha", .string("x"))]),
        Record([]),
    ]

    @Test func pretty() throws {
        try JSONTest.roundTrip(
            Self.records, style: .pretty,
            golden: """
                [
                  {
                    "name": "Wii",
                    "price": 269.0,
                    "tags": [
                      1,
                      true,
                      null
                    ],
                    "meta": {
                      "z": [],
                      "a": {}
                    }
                  },
                  {
                    "zeta": 2,
                    "alpha": "x"
                  },
                  {}
                ]

                """)
    }

    @Test func compact() throws {
        try JSONTest.roundTrip(
            Self.records, style: .compact,
            golden: #"[{"name":"Wii","price":269.0,"tags":[1,true,null],"meta":{"z":[],"a":{}}},{"zeta":2,"alpha":"x"},{}]"#
                + "\n")
    }

    @Test func lines() throws {
        try JSONTest.roundTrip(
            Self.records, style: .lines,
            golden: """
                {"name":"Wii","price":269.0,"tags":[1,true,null],"meta":{"z":[],"a":{}}}
                {"zeta":2,"alpha":"x"}
                {}

                """)
    }

    @Test(arguments: [(JSONWriter.Style.pretty, "[]\n"), (.compact, "[]\n"), (.lines, "")])
    func noRecords(_ style: JSONWriter.Style, golden: String) throws {
        try JSONTest.roundTrip([], style: style, golden: golden)
    }

    @Test func keyOrderFollowsEachRecord() throws {
        let records = [
            Record([("b", .integer(1)), ("a", .integer(2))]),
            Record([("a", .integer(3)), ("b", .integer(4))]),
            Record([("b", .integer(5))]),
            Record([("b", .integer(6)), ("a", .integer(7)), ("c", .integer(8))]),
        ]
        try JSONTest.roundTrip(
            records, style: .lines,
            golden: "{\"b\":1,\"a\":2}\n{\"a\":3,\"b\":4}\n{\"b\":5}\n{\"b\":6,\"a\":7,\"c\":8}\n")
    }

    @Test func readerKeepsKeyOrderAcrossShapes() throws {
        let text = #"[{"b":1,"a":2},{"b":1,"a":2,"c":3},{"a":1},{"c":0,"b":1,"a":2},{"b":1}]"#
        let records = try JSONTest.records(text)
        #expect(records.map(\.fields.names) == [["b", "a"], ["b", "a", "c"], ["a"], ["c", "b", "a"], ["b"]])
        #expect(try JSONTest.write(records, style: .compact) == Array((text + "\n").utf8))
    }

    @Test func duplicateKeysKeepTheLastValueInTheFirstPlace() throws {
        let records = try JSONTest.records(#"[{"a":1,"b":2},{"a":1,"b":2,"a":3},{"a":1,"a":4}]"#)
        #expect(records[1].pairs.map(\.0) == ["a", "b"])
        #expect(records[1]["a"] == .integer(3))
        #expect(records[2].pairs.map(\.0) == ["a"])
        #expect(records[2]["a"] == .integer(4))
    }

    @Test func bytesBecomeDataURIs() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00]
        let bytes = try JSONTest.write([Record([("photo", .bytes(png)), ("raw", .bytes([1, 2, 3]))])], style: .lines)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "{\"photo\":\"data:image/png;base64,iVBORw0KGgoA\",\"raw\":\"data:application/octet-stream;base64,AQID\"}\n")
    }

    @Test func datesBecomeISO8601Strings() throws {
        let records = [Record([("at", .date(Date(timeIntervalSince1970: 1_507_379_400))), ("ms", .date(Date(timeIntervalSince1970: -0.25)))])]
        let bytes = try JSONTest.write(records, style: .lines)
        #expect(String(decoding: bytes, as: UTF8.self) == "{\"at\":\"2017-10-07T12:30:00Z\",\"ms\":\"1969-12-31T23:59:59.750Z\"}\n")
    }

    @Test func finishTwiceWritesOnce() throws {
        let output = MemoryOutput()
        let writer = JSONWriter(output, style: .compact)
        try writer.write(Record([("a", .integer(1))]))
        try writer.finish()
        try writer.finish()
        #expect(output.text == "[{\"a\":1}]\n")
    }

    @Test func largeOutputIsWrittenWhole() throws {
        let records = (0..<40_000).map { Record([("i", .integer(Int64($0))), ("s", .string(String(repeating: "x", count: $0 % 50)))]) }
        let bytes = try JSONTest.write(records, style: .lines)
        #expect(bytes.count > 1 << 20)
        #expect(try JSONTest.records(MemoryInput(bytes), layout: .lines) == records)
    }
}
