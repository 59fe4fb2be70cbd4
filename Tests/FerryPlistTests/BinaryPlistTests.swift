import Foundation
import Testing

@testable import FerryKit
@testable import FerryPlist
import FerryTestSupport

@Suite struct BinaryPlistTests {
    // MARK: - Corpora

    /// libplist's fuzzing crashes and leaks, and the other hostile files:
    /// each is a coded error or a value, never a crash or a hang.
    @Test(arguments: try PlistFixtures.corpusFiles("libplist-fuzz/fuzz/bplist-crashes")
        + PlistFixtures.corpusFiles("libplist-fuzz/fuzz/bplist-leaks"))
    func fuzzCrashesEndInCodedErrors(file: URL) throws {
        let bytes = try PlistFixtures.bytes(file)
        do throws(FerryError) {
            _ = try PlistFixtures.decode(bytes)
        } catch {
            #expect(["bplist.", "limit."].contains { error.code.rawValue.hasPrefix($0) }, "\(error)")
            #expect(error.location.byteOffset != nil)
        }
    }

    @Test func libplistFilesDecodeToTheirValues() throws {
        let data = try PlistFixtures.decode(PlistFixtures.bytes(PlistFixtures.corpus("keyed-archives/libplist/data.bplist")))
        guard case .dictionary(let dictionary) = data else { Issue.record("not a dict: \(data)"); return }
        #expect(dictionary.count > 0)

        let uid = try PlistFixtures.decode(PlistFixtures.bytes(PlistFixtures.corpus("keyed-archives/libplist/uid.bplist")))
        #expect(Self.contains(uid) { if case .uid = $0 { true } else { false } })

        // Signed and unsigned extremes: every integer libplist wrote comes back.
        let numbers = try PlistFixtures.decode(
            PlistFixtures.bytes(PlistFixtures.corpus("keyed-archives/libplist/signedunsigned.bplist")))
        #expect(Self.contains(numbers) { $0 == .unsignedInteger(UInt64.max) || $0 == .integer(Int64.min) || $0 == .integer(-1) })
    }

    @Test(arguments: [
        ("keyed-archives/libplist/recursion.bplist", "bplist.cycle"),
        ("keyed-archives/rust-plist/binary_circular_array.plist", "bplist.cycle"),
        ("keyed-archives/libplist/malformed_dict.bplist", "bplist.keyNotString"),
        ("keyed-archives/rust-plist/binary_zero_offset_size.plist", "bplist.invalidTrailer"),
    ])
    func brokenFilesFailWithTheirCodes(path: String, code: String) throws {
        let bytes = try PlistFixtures.bytes(PlistFixtures.corpus(path))
        #expect(throws: FerryError.self) { _ = try PlistFixtures.decode(bytes) }
        do throws(FerryError) {
            _ = try PlistFixtures.decode(bytes)
        } catch {
            #expect(error.code.rawValue == code)
        }
    }

    static func contains(_ value: PlistValue, where matches: (PlistValue) -> Bool) -> Bool {
        if matches(value) { return true }
        switch value {
        case .array(let elements): return elements.contains { contains($0, where: matches) }
        case .dictionary(let dictionary): return dictionary.values.contains { contains($0, where: matches) }
        default: return false
        }
    }

    // MARK: - Writer

    @Test func everyTypeRoundTrips() throws {
        let value = PlistValue.dictionary(
            PlistDictionary([
                ("ascii", .string("Wii")), ("utf16", .string("Café 🎮")), ("empty", .string("")),
                ("long", .string(String(repeating: "x", count: 300))),
                ("small", .integer(255)), ("two", .integer(256)), ("four", .integer(65_536)),
                ("big", .integer(Int64.max)), ("min", .integer(Int64.min)), ("negative", .integer(-1)),
                ("huge", .unsignedInteger(UInt64.max)), ("real", .real(19.99)), ("whole", .real(299)),
                ("true", .bool(true)), ("false", .bool(false)),
                ("date", .date(Date(timeIntervalSinceReferenceDate: 512_345_678.25))),
                ("data", .data([0x89, 0x50, 0x4E, 0x47] + [UInt8](repeating: 7, count: 40))),
                ("uid", .uid(70_000)), ("array", .array((0..<20).map { .integer(Int64($0)) })),
                ("nested", .dictionary(PlistDictionary([("a", .array([.string("b"), .bool(true)]))]))),
            ]))
        let decoded = try PlistFixtures.decode(try PlistFixtures.encode(value))
        #expect(decoded == value)
    }

    @Test func writerPicksMinimalSizesAndSharesEqualObjects() throws {
        let bytes = try PlistFixtures.encode(.array([.string("same"), .string("same"), .integer(7), .integer(7)]))
        let trailer = Array(bytes.suffix(32))
        #expect(trailer[6] == 1)  // offsets fit in a byte
        #expect(trailer[7] == 1)  // references too
        // The array, one string and one integer.
        #expect(trailer[8 + 7] == 3)
    }

    @Test func manyObjectsWidenReferences() throws {
        let value = PlistValue.array((0..<70_000).map { .integer(Int64($0) + 1_000) })
        let bytes = try PlistFixtures.encode(value)
        #expect(bytes.suffix(32)[bytes.count - 32 + 7] == 4)
        #expect(try PlistFixtures.decode(bytes) == value)
    }

    // MARK: - Hostile input

    @Test func hostileHandMadeFilesFailWithCodes() throws {
        func code(_ bytes: [UInt8], limits: ReadLimits = ReadLimits()) -> String? {
            do throws(FerryError) {
                _ = try PlistFixtures.decode(bytes, limits: limits)
                return nil
            } catch {
                return error.code.rawValue
            }
        }
        // An array holding itself.
        #expect(code(PlistFixtures.handMade([[0xA1, 0x00]])) == "bplist.cycle")
        // A reference past the last object.
        #expect(code(PlistFixtures.handMade([[0xA1, 0x05]])) == "bplist.referenceOutOfRange")
        // A string whose count runs past the objects.
        #expect(code(PlistFixtures.handMade([[0x5F, 0x10, 0xFF, 0x41]])) == "bplist.objectOutOfBounds")
        // A count of 2^63 references.
        #expect(code(PlistFixtures.handMade([[0xAF, 0x13, 0x80, 0, 0, 0, 0, 0, 0, 0]])) == "bplist.objectOutOfBounds")
        // An unknown marker.
        #expect(code(PlistFixtures.handMade([[0x70]])) == "bplist.invalidObject")
        // A non-ASCII byte in an ASCII string, and a lone surrogate.
        #expect(code(PlistFixtures.handMade([[0x51, 0xE9]])) == "bplist.invalidString")
        #expect(code(PlistFixtures.handMade([[0x61, 0xD8, 0x00]])) == "bplist.invalidString")
        // Not a plist at all, and a file too short for a trailer.
        #expect(code(Array("hello, world".utf8)) == "bplist.notBinaryPlist")
        #expect(code(Array("bplist00".utf8) + [0x08]) == "bplist.invalidTrailer")
    }

    /// UTF-16 strings are transcoded by hand: every kind of scalar (one to
    /// four UTF-8 bytes, pairs included) must come out as Swift decodes it.
    @Test func utf16StringsTranscodeLikeSwift() throws {
        var generator = SeededGenerator(seed: 16)
        let ranges: [ClosedRange<UInt32>] = [0x0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        for _ in 0..<200 {
            var text = ""
            for _ in 0..<Int.random(in: 1...14, using: &generator) {
                let range = ranges.randomElement(using: &generator)!
                text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &generator))!)
            }
            let units = Array(text.utf16)
            var object: [UInt8] = units.count < 15 ? [0x60 | UInt8(units.count)] : [0x6F, 0x10, UInt8(units.count)]
            for unit in units { object += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            #expect(try PlistFixtures.decode(PlistFixtures.handMade([object])) == .string(text))
        }
        // Lone surrogates: a low one, a high one before a letter, a high one at the end.
        for object: [UInt8] in [[0x61, 0xDC, 0x00], [0x62, 0xD8, 0x3D, 0x00, 0x41], [0x62, 0x00, 0x41, 0xD8, 0x3D]] {
            #expect(throws: FerryError.self) { _ = try PlistFixtures.decode(PlistFixtures.handMade([object])) }
        }
    }

    /// Offsets are checked when their object is asked for, not before: a bad
    /// offset of an object nobody refers to does not spoil the file.
    @Test func badOffsetsFailOnlyWhenUsed() throws {
        var bytes = PlistFixtures.handMade([[0xA1, 0x01], [0x09], [0x08]])
        let table = bytes.count - 32 - 3
        bytes[table + 2] = 0xFF  // object 2, never referred to
        #expect(try PlistFixtures.decode(bytes) == .array([.bool(true)]))
        bytes[table + 1] = 0x02  // object 1 now starts inside the header
        do throws(FerryError) {
            _ = try PlistFixtures.decode(bytes)
            Issue.record("a bad offset was accepted")
        } catch {
            #expect(error.code.rawValue == "bplist.offsetOutOfRange")
            #expect(error.location.byteOffset == table + 1)
        }
    }

    /// Forty arrays, each holding the next one twice: a trillion values if
    /// expanded, refused by the budget instead.
    @Test func sharedReferencesCannotExplode() throws {
        var objects: [[UInt8]] = []
        for index in 0..<40 { objects.append([0xA2, UInt8(index + 1), UInt8(index + 1)]) }
        objects.append([0x08])
        let bytes = PlistFixtures.handMade(objects)
        #expect(throws: FerryError.self) { _ = try PlistFixtures.decode(bytes) }
        do throws(FerryError) {
            _ = try PlistFixtures.decode(bytes)
        } catch {
            #expect(error.code == .expansionTooLarge)
        }
    }

    @Test func nestingIsLimited() throws {
        // 600 arrays, each holding the next.
        var objects: [[UInt8]] = []
        for index in 0..<600 { objects.append([0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)]) }
        objects.append([0x09])
        let bytes = PlistFixtures.handMade(objects, referenceSize: 2)
        do throws(FerryError) {
            _ = try PlistFixtures.decode(bytes)
            Issue.record("600 levels decoded")
        } catch {
            #expect(error.code == .nestingTooDeep)
        }
    }

    @Test func objectCountIsLimited() throws {
        var limits = ReadLimits()
        limits.maxObjects = 2
        let bytes = try PlistFixtures.encode(.array([.integer(1), .integer(2), .integer(3)]))
        do throws(FerryError) {
            _ = try PlistFixtures.decode(bytes, limits: limits)
            Issue.record("decoded past the object limit")
        } catch {
            #expect(error.code == .tooManyObjects)
        }
    }

    // MARK: - Records

    @Test func recordsRoundTripThroughTheCodec() throws {
        let fields = FieldList(["name", "price", "photo", "tags"])
        let records = [
            Record(fields: fields, values: [.string("Xbox 360"), .double(299), .bytes([0x89, 0x50, 0x4E, 0x47]), .array([.string("console")])]),
            Record(fields: fields, values: [.string("Wii"), .double(269), .null, .array([])]),
        ]
        let bytes = try PlistFixtures.write(records, codec: PlistCodec())
        let read = PlistFixtures.read(bytes, codec: PlistCodec())
        #expect(read.error == nil)
        #expect(read.records.count == 2)
        #expect(read.records[0] == records[0])
        // The null photo is left out of the second dictionary.
        #expect(read.records[1].fields.names == ["name", "price", "tags"])
        #expect(read.records[1].fields === read.records[1].fields)
    }

    @Test func aDictionaryIsOneRecordAndAScalarIsNone() throws {
        let one = try PlistFixtures.encode(.dictionary(PlistDictionary([("name", .string("Wii"))])))
        #expect(PlistFixtures.read(one, codec: PlistCodec()).records.count == 1)
        let scalar = try PlistFixtures.encode(.string("just text"))
        #expect(PlistFixtures.read(scalar, codec: PlistCodec()).error?.code == .formatNotRecords)
        let notDictionary = try PlistFixtures.encode(.array([.dictionary(PlistDictionary([("a", .integer(1))])), .integer(2)]))
        let read = PlistFixtures.read(notDictionary, codec: PlistCodec())
        #expect(read.records.count == 1)
        #expect(read.error?.code == .bplistRecordNotDictionary)
        #expect(read.error?.location.record == 1)
    }

    @Test func repeatedKeysKeepTheirFirstPlaceAndLastValue() throws {
        // {"a": 1, "b": 2, "a": 3} written by hand: keys 1, 2, 1; values 3, 4, 5.
        let bytes = PlistFixtures.handMade([
            [0xA1, 0x01], [0xD3, 0x02, 0x03, 0x02, 0x04, 0x05, 0x06], [0x51, 0x61], [0x51, 0x62],
            [0x10, 0x01], [0x10, 0x02], [0x10, 0x03],
        ])
        let read = PlistFixtures.read(bytes, codec: PlistCodec())
        #expect(read.error == nil)
        #expect(read.records.first?.fields.names == ["a", "b"])
        #expect(read.records.first?.values == [.integer(3), .integer(2)])
    }

    @Test func integersAboveInt64AreExactNumbersInRecords() throws {
        let bytes = try PlistFixtures.encode(.array([.dictionary(PlistDictionary([("n", .unsignedInteger(UInt64.max))]))]))
        let read = PlistFixtures.read(bytes, codec: PlistCodec())
        #expect(read.error == nil)
        guard case .number(let number)? = read.records.first?["n"] else { Issue.record("n is no number"); return }
        #expect(number.text == "18446744073709551615")
    }
}
