import FerryKit
import FerryPlist
import Foundation
import Testing

// MARK: - Inputs

/// An input that hands out 1 to 7 bytes per read, chosen by a seeded
/// generator, so refills land anywhere inside tags, references and text.
func xmlTrickleInput(_ bytes: [UInt8], seed: UInt64, name: String = "-") -> MemoryInput {
    var state = seed | 1
    return MemoryInput(bytes, name: name) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 61) % 7 + 1
    }
}

// MARK: - Reading and writing

enum XMLPlistTest {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static func limits(maxDepth: Int) -> ReadLimits {
        var limits = ReadLimits()
        limits.maxDepth = maxDepth
        return limits
    }

    /// Every record of `input`.
    static func records(_ input: any ByteInput, limits: ReadLimits = ReadLimits()) throws(FerryError) -> [Record] {
        let reader = try XMLPlistReader(input, limits: limits)
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    static func records(_ text: String) throws(FerryError) -> [Record] {
        try records(MemoryInput(text))
    }

    /// The error reading `bytes` ends with, or nil when it reads cleanly.
    static func readError(_ bytes: [UInt8], limits: ReadLimits = ReadLimits(), seed: UInt64? = nil) -> FerryError? {
        let input: any ByteInput = seed.map { xmlTrickleInput(bytes, seed: $0) } ?? MemoryInput(bytes)
        do throws(FerryError) {
            _ = try records(input, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// The error parsing `bytes` whole ends with, or nil when it is well formed.
    static func parseError(_ bytes: [UInt8], limits: ReadLimits = ReadLimits()) -> FerryError? {
        do throws(FerryError) {
            _ = try XMLPlistParser.parse(MemoryInput(bytes), limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func parse(_ text: String) throws(FerryError) -> PlistValue {
        try XMLPlistParser.parse(MemoryInput(text))
    }

    static func write(_ records: [Record]) throws(FerryError) -> [UInt8] {
        let output = MemoryOutput()
        let writer = XMLPlistWriter(output)
        for record in records { try writer.write(record) }
        try writer.finish()
        return output.bytes
    }
}

extension FerryError {
    /// Line and column, for compact expectations.
    var place: [Int?] { [location.line, location.column] }
}

// MARK: - Sample records

enum XMLPlistSamples {
    /// 2017-10-07T12:30:00Z
    static let date = Date(timeIntervalSince1970: 1_507_379_400)

    /// Records holding every value type, with text that needs escaping.
    static let records: [Record] = {
        var records: [Record] = []
        let fields = FieldList([
            "name", "count", "min", "price", "tenth", "huge", "whole", "ok", "no", "when", "photo", "empty", "tags",
            "nested",
        ])
        for index in 0..<40 {
            let values: [Value] = [
                .string("Fish & Chips <deluxe> \"q\" 'a' café 😀 ]]> \r\n\ttab #\(index)"),
                .integer(Int64.max - Int64(index)),
                .integer(Int64.min + Int64(index)),
                .double(19.99 + Double(index)),
                .double(0.1),
                .double(1e300),
                .double(67.0),
                .bool(index % 2 == 0),
                .bool(false),
                .date(date.addingTimeInterval(Double(index) * 86_400.0)),
                .bytes((0..<(index * 7 % 120)).map { UInt8(truncatingIfNeeded: $0 * 37 + index) }),
                .string(""),
                .array([.string("a&b"), .integer(-1), .array([]), .object(OrderedObject()), .double(-0.5)]),
                .object(
                    OrderedObject([
                        ("k", .string("v")), ("deep", .array([.array([.bool(true)])])),
                        ("ü", .integer(index == 0 ? 0 : 1)),
                    ])),
            ]
            records.append(Record(fields: fields, values: values, origin: RecordOrigin(index: records.count)))
            if index % 10 == 9 {
                records.append(Record([("other", .string("different keys")), ("é", .integer(Int64(index)))]))
            }
        }
        return records
    }()
}
