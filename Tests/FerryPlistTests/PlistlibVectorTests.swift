import Foundation
import Testing

@testable import FerryKit
@testable import FerryPlist
import FerryTestSupport

/// CPython's test_plistlib vectors (Tests/Corpora/cpython-plistlib): Apple's
/// own sample plist in binary and XML, the UTF-16 forms `test_xml_encodings`
/// makes of it, and `INVALID_BINARY_PLISTS`. Ferry reads what plistlib reads,
/// and refuses what it refuses, each with a code and a place.
@Suite struct PlistlibVectorTests {
    static let folder = "cpython-plistlib"

    static func bytes(_ name: String) throws -> [UInt8] {
        try PlistFixtures.bytes(try PlistFixtures.corpus("\(folder)/\(name)"))
    }

    static func object(_ pairs: [(String, Value)]) -> Value { .object(OrderedObject(pairs)) }

    /// test_plistlib's `_create()`, as one record, in the files' key order.
    static let sample: [(String, Value)] = {
        let gunk = Array("<lots of binary gunk>".utf8) + [0, 1, 2, 3]
        let lots = Array([[UInt8]](repeating: gunk, count: 10).joined())
        return [
            ("aBigInt", .integer(9_223_372_036_854_775_764)),
            ("aBigInt2", .number(NumberText(unchecked: "9223372036854775852"))),
            ("aDate", .date(Date(timeIntervalSince1970: 1_098_786_813))),
            ("aDict", object([
                ("aFalseValue", .bool(false)), ("aTrueValue", .bool(true)),
                ("aUnicodeValue", .string("M\u{E4}ssig, Ma\u{DF}")),
                ("anotherString", .string("<hello & 'hi' there!>")),
                ("deeperDict", object([
                    ("a", .integer(17)), ("b", .double(32.5)), ("c", .array([.integer(1), .integer(2), .string("text")])),
                ])),
            ])),
            ("aFloat", .double(0.5)),
            ("aList", .array([.string("A"), .string("B"), .integer(12), .double(32.5), .array([.integer(1), .integer(2), .integer(3)])])),
            ("aNegativeBigInt", .integer(-80_000_000_000)),
            ("aNegativeInt", .integer(-5)),
            ("aString", .string("Doodah")),
            ("anEmptyDict", object([])),
            ("anEmptyList", .array([])),
            ("anInt", .integer(728)),
            ("nestedData", .array([.bytes(lots)])),
            ("someData", .bytes(Array("<binary gunk>".utf8))),
            ("someMoreData", .bytes(lots)),
            ("\u{C5}benraa", .string("That was a unicode key.")),
        ]
    }()

    static let sampleFiles = [
        "apple-sample.bplist", "apple-sample.plist", "apple-sample-utf8-bom.plist", "apple-sample-utf16le.plist",
        "apple-sample-utf16be.plist",
    ]

    /// The record a file reads as, with the codec its content sniffs as.
    static func sampleRecord(_ name: String) throws -> (codec: String, record: Record?, error: FerryError?) {
        let bytes = try Self.bytes(name)
        let sniffed = try #require(CodecRegistry.standard.sniff(Array(bytes.prefix(FormatResolver.sniffLength))))
        let read = PlistFixtures.read(bytes, codec: sniffed.codec)
        #expect(read.records.count <= 1)
        return (sniffed.codec.id, read.records.first, read.error)
    }

    // MARK: - Apple's sample

    @Test(arguments: sampleFiles)
    func appleSampleReadsAsPlistlibReadsIt(name: String) throws {
        let (codec, record, error) = try Self.sampleRecord(name)
        #expect(codec == (name.hasSuffix(".bplist") ? "plist" : "plist-xml"))
        #expect(error == nil)
        let read = try #require(record)
        #expect(read.fields.names == Self.sample.map(\.0))
        #expect(read.values == Self.sample.map(\.1))
        // Equal as numbers is not enough: the digits are the integer's own.
        guard case .number(let big)? = read["aBigInt2"] else { Issue.record("aBigInt2 is \(String(describing: read["aBigInt2"]))"); return }
        #expect(big.text == "9223372036854775852")
    }

    @Test(.enabled(if: XMLPlistInteropTests.python != nil, "python3 is not installed"), arguments: sampleFiles)
    func ferryAndPlistlibDescribeTheSampleAlike(name: String) throws {
        let url = try PlistFixtures.corpus("\(Self.folder)/\(name)")
        let script = XMLPlistInteropTests.describe + """
            value = plistlib.loads(open(sys.argv[1], 'rb').read())
            out = []
            walk([value], "", out)
            print("\\n".join(out))
            """
        let described = try XMLPlistInteropTests.runPython(script, [url.path]).trimmingCharacters(in: .newlines)
        let record = try #require(try Self.sampleRecord(name).record)
        #expect(XMLPlistInteropTests.describe([record]) == described)
    }

    /// Ferry writes the sample back in both forms; plistlib reads each as it
    /// reads Apple's file, and aBigInt2 is stored as Apple stores it.
    @Test(.enabled(if: XMLPlistInteropTests.python != nil, "python3 is not installed"))
    func plistlibReadsTheSampleFerryWrites() throws {
        let record = try #require(try Self.sampleRecord("apple-sample.bplist").record)
        let binary = try PlistFixtures.write([record], codec: PlistCodec())
        let xml = try PlistFixtures.write([record], codec: PlistXMLCodec())
        // 16-byte integer: marker 0x14, eight zero bytes, then 2^63 + 44.
        let big: [UInt8] = [0x14] + [UInt8](repeating: 0, count: 8) + [0x80, 0, 0, 0, 0, 0, 0, 0x2C]
        #expect(binary.firstRange(of: big) != nil)
        #expect(xml.firstRange(of: Array("<integer>9223372036854775852</integer>".utf8)) != nil)
        let original = try PlistFixtures.corpus("\(Self.folder)/apple-sample.bplist")
        var paths: [String] = []
        for (suffix, bytes) in [("bin.plist", binary), ("xml.plist", xml)] {
            let file = XMLPlistInteropTests.temporaryFile(suffix)
            try Data(bytes).write(to: file)
            paths.append(file.path)
        }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        let script = """
            import plistlib, sys
            original = plistlib.loads(open(sys.argv[1], 'rb').read())
            for path in sys.argv[2:]:
                print(plistlib.loads(open(path, 'rb').read()) == [original])
            """
        let answer = try XMLPlistInteropTests.runPython(script, [original.path] + paths)
        #expect(answer == "True\nTrue\n")
    }

    @Test func integersUpTo2To64RoundTripExactly() throws {
        for text in ["9223372036854775808", "9223372036854775852", "18446744073709551615"] {
            let record = Record([("n", .number(NumberText(unchecked: text)))])
            let binary = try PlistFixtures.write([record], codec: PlistCodec())
            let value = try PlistFixtures.decode(binary)
            #expect(value == .array([.dictionary(PlistDictionary([("n", .unsignedInteger(try #require(UInt64(text))))]))]))
            let read = PlistFixtures.read(binary, codec: PlistCodec())
            guard case .number(let number)? = read.records.first?["n"] else { Issue.record("\(text) not read back"); continue }
            #expect(number.text == text)
        }
        // 2^64 and past fit no plist integer: rounded to a double, as before.
        let losses = LossTally()
        let stored = losses.storable(
            Record([("n", .number(NumberText(unchecked: "18446744073709551616")))]), keepsUnsigned: true)
        #expect(stored["n"] == .double(18_446_744_073_709_551_616))
    }

    /// `test_keyed_archive_data`: as a plain plist, the archive plistlib
    /// describes (UIDs as `{"CF$UID": n}`); as an archive, its root is the
    /// string of an NSString subclass, which is no record.
    @Test func keyedArchiveSampleReadsAsPlistlibReadsIt() throws {
        let bytes = try Self.bytes("keyed-archive.bplist")
        let uid = { (number: Int64) -> Value in Self.object([("CF$UID", .integer(number))]) }
        let read = PlistFixtures.read(bytes, codec: PlistCodec())
        #expect(read.error == nil)
        let record = try #require(read.records.first)
        #expect(Set(record.fields.names) == ["$version", "$objects", "$archiver", "$top"])
        #expect(record["$version"] == .integer(100_000))
        #expect(record["$archiver"] == .string("NSKeyedArchiver"))
        #expect(record["$top"] == Self.object([("root", uid(1))]))
        guard case .array(let objects)? = record["$objects"], objects.count == 3 else {
            Issue.record("$objects is \(String(describing: record["$objects"]))")
            return
        }
        #expect(objects[0] == .string("$null"))
        guard case .object(let string) = objects[1], case .object(let description) = objects[2] else {
            Issue.record("objects 1 and 2 are no dictionaries")
            return
        }
        #expect(string["pytype"] == .integer(1))
        #expect(string["$class"] == uid(2))
        #expect(string["NS.string"] == .string("KeyArchive UID Test"))
        #expect(description["$classname"] == .string("OC_BuiltinPythonUnicode"))
        #expect(description["$classes"] == .array(["OC_BuiltinPythonUnicode", "OC_PythonUnicode", "NSString", "NSObject"].map { .string($0) }))
        #expect(description["$classhints"] == .array([.string("OC_PythonString"), .string("NSString")]))

        let limits = ReadLimits()
        let archive = try KeyedArchiveObjects(binary: InputBytes(bytes), name: "test", limits: limits)
        var decoder = KeyedArchiveDecoder(archive, limits: limits, classMap: ClassMap())
        #expect(try decoder.value(uid: archive.root, depth: 1) == .string("KeyArchive UID Test"))
        #expect(PlistFixtures.read(bytes, codec: ArchiveCodec()).error?.code == .archiveRecordNotObject)
    }

    // MARK: - Invalid binary plists

    /// Every one of `INVALID_BINARY_PLISTS`, with the code and byte offset
    /// Ferry refuses it with. `too-large-datetime-datetime-overflow` is the
    /// year 10,711: past Python's `datetime`, but a date Ferry (and CF) can
    /// show, so it reads.
    @Test(arguments: [
        ("extremally-large-array-size-32-bit", "bplist.invalidObject", 9),
        ("extremally-large-array-size-64-bit", "bplist.invalidObject", 9),
        ("extremally-large-ascii-size-32-bit", "bplist.invalidObject", 9),
        ("extremally-large-ascii-size-64-bit", "bplist.invalidObject", 9),
        ("extremally-large-bytes-size-32-bit", "bplist.invalidObject", 9),
        ("extremally-large-bytes-size-64-bit", "bplist.invalidObject", 9),
        ("extremally-large-num-objects-32-bit", "bplist.invalidTrailer", 10),
        ("extremally-large-num-objects-64-bit", "bplist.invalidTrailer", 10),
        ("extremally-large-utf-16-size-32-bit", "bplist.invalidObject", 9),
        ("extremally-large-utf-16-size-64-bit", "bplist.invalidObject", 9),
        ("integer-overflow-in-array-size", "bplist.invalidObject", 9),
        ("integer-overflow-in-ascii-size", "bplist.invalidObject", 9),
        ("integer-overflow-in-bytes-size", "bplist.invalidObject", 9),
        ("integer-overflow-in-num-objects", "bplist.invalidTrailer", 10),
        ("integer-overflow-in-offset-table-offset", "bplist.invalidTrailer", 10),
        ("integer-overflow-in-offset", "bplist.offsetOutOfRange", 9),
        ("integer-overflow-in-reference-index", "bplist.referenceOutOfRange", 9),
        ("integer-overflow-in-top-object", "bplist.invalidTrailer", 10),
        ("integer-overflow-in-utf-16-size", "bplist.invalidObject", 9),
        ("invalid-ascii", "bplist.invalidString", 9),
        ("invalid-datetime-infinity", "plist.invalidDate", 8),
        ("invalid-datetime-nan", "plist.invalidDate", 8),
        ("invalid-utf-16", "bplist.invalidString", 9),
        ("non-hashable-key", "bplist.keyNotString", 11),
        ("offset-size-0", "bplist.invalidTrailer", 10),
        ("ref-size-0", "bplist.invalidTrailer", 13),
        ("too-large-array-size", "bplist.invalidObject", 9),
        ("too-large-ascii-size", "bplist.invalidObject", 9),
        ("too-large-bytes-size", "bplist.invalidObject", 9),
        ("too-large-datetime-datetime-overflow", "", 0),
        ("too-large-datetime-timedelta-overflow", "plist.invalidDate", 8),
        ("too-large-num-objects-and-nonstandard-offset-size", "bplist.invalidTrailer", 12),
        ("too-large-num-objects-and-offset-size-1", "bplist.invalidTrailer", 10),
        ("too-large-offset-table-offset-and-nonstandard-offset-size", "bplist.invalidTrailer", 12),
        ("too-large-offset-table-offset-and-offset-size-1", "bplist.invalidTrailer", 10),
        ("too-large-offset", "bplist.offsetOutOfRange", 9),
        ("too-large-reference-index", "bplist.referenceOutOfRange", 9),
        ("too-large-top-object", "bplist.invalidTrailer", 10),
        ("too-large-utf-16-size", "bplist.invalidObject", 9),
        ("too-short-data", "bplist.invalidTrailer", 0),
    ])
    func invalidBinaryPlistsAreRefused(name: String, code: String, byteOffset: Int) throws {
        let bytes = try Self.bytes("invalid-binary/\(name).bplist")
        do throws(FerryError) {
            _ = try PlistFixtures.decode(bytes)
            #expect(code.isEmpty, "\(name) read")
        } catch {
            #expect(error.code.rawValue == code)
            #expect(error.location.byteOffset == byteOffset)
            #expect(error.location.file == "test")
        }
    }

    // MARK: - Dates

    /// A date of `seconds` since 2001 as object 1 of `[date]`.
    static func datePlist(_ seconds: Double) -> [UInt8] {
        PlistFixtures.handMade([[0xA1, 0x01], [0x33] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: seconds.bitPattern >> ($0 * 8)) }])
    }

    @Test(arguments: [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"), (1e14, "100000000000000.0"), (-2e14, "-200000000000000.0")])
    func datesNoCalendarShowsAreRefusedAtTheirObject(seconds: Double, shown: String) {
        do throws(FerryError) {
            _ = try PlistFixtures.decode(Self.datePlist(seconds))
            Issue.record("\(shown) read")
        } catch {
            #expect(error.code == .plistInvalidDate)
            #expect(error.arguments == [.integer(1), .string(shown)])
            #expect(error.location.byteOffset == 10)
        }
    }

    @Test func aNaNDateInARecordIsAnErrorNotText() throws {
        // [{"d": NaN date}]: array, dict, key "d", the date.
        let bytes = PlistFixtures.handMade([
            [0xA1, 0x01], [0xD1, 0x02, 0x03], [0x51, 0x64], [0x33, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0],
        ])
        let read = PlistFixtures.read(bytes, codec: PlistCodec())
        #expect(read.records.isEmpty)
        #expect(read.error?.code == .plistInvalidDate)
        #expect(read.error?.arguments == [.integer(3), .string("nan")])
        #expect(read.error?.location.byteOffset == 15)
    }

    @Test func anArchivedDateOfNaNIsAnError() throws {
        func description(_ name: String) -> PlistValue {
            .dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
        }
        // A Thing whose `when` is an NSDate of NaN seconds.
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([
                .string("$null"),
                .dictionary(PlistDictionary([("$class", .uid(2)), ("when", .uid(3))])),
                description("Thing"),
                .dictionary(PlistDictionary([("$class", .uid(4)), ("NS.time", .real(.nan))])),
                description("NSDate"),
            ])),
        ]))
        let read = PlistFixtures.read(try PlistFixtures.encode(archive), codec: ArchiveCodec())
        #expect(read.error?.code == .plistInvalidDate)
        #expect(read.error?.arguments == [.integer(3), .string("nan")])
        #expect(read.error?.location.field == "NS.time")
        #expect(read.error?.location.byteOffset != nil)
    }

    @Test func xmlDatesPastWhatTextShowsAreInvalid() {
        let error = XMLPlistTest.readError(Array((XMLPlistTest.header + "<dict><key>d</key><date>999999999-01-01T00:00:00Z</date></dict></plist>").utf8))
        #expect(error?.code == .xmlPlistInvalidDate)
        #expect(error?.arguments == [.string("999999999-01-01T00:00:00Z")])
        #expect(error?.location.line == 4)
    }

    @Test func textKeepsMicroseconds() {
        func text(_ seconds: Double) -> String { Timestamp.iso8601(Date(timeIntervalSinceReferenceDate: seconds)) }
        #expect(text(120_000_000.382174) == "2004-10-20T21:20:00.382174Z")
        #expect(text(120_000_000.382) == "2004-10-20T21:20:00.382Z")
        #expect(text(120_000_000.25) == "2004-10-20T21:20:00.250Z")
        #expect(text(120_000_000.000001) == "2004-10-20T21:20:00.000001Z")
        #expect(text(120_000_000.9999996) == "2004-10-20T21:20:01Z")
        #expect(text(-0.000250) == "2000-12-31T23:59:59.999750Z")
    }

    @Test func aBinaryDateKeepsItsMicrosecondsInJSON() throws {
        let bytes = PlistFixtures.handMade([
            [0xA1, 0x01], [0xD1, 0x02, 0x03], [0x51, 0x64],
            [0x33] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: (120_000_000.382174).bitPattern >> ($0 * 8)) },
        ])
        let read = PlistFixtures.read(bytes, codec: PlistCodec())
        let json = try #require(CodecRegistry.standard.codec(id: "json"))
        let text = String(decoding: try PlistFixtures.write(read.records, codec: json), as: UTF8.self)
        #expect(text.contains("\"2004-10-20T21:20:00.382174Z\""))
    }

    // MARK: - UTF-16

    @Test func utf16IsSniffedAsAnXMLPlist() throws {
        for name in ["apple-sample-utf16le.plist", "apple-sample-utf16be.plist"] {
            let prefix = Array(try Self.bytes(name).prefix(FormatResolver.sniffLength))
            #expect(PlistXMLCodec().sniff(prefix) == .likely)
            #expect(CodecRegistry.standard.sniff(prefix)?.codec.id == "plist-xml")
        }
        // An XML keyed archive in UTF-16 is claimed by the archive codec.
        let archive = Array("<?xml version=\"1.0\"?><plist><dict><key>$archiver</key>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(ArchiveCodec().sniff([0xFF, 0xFE] + archive) == .certain)
    }

    @Test func brokenUTF16IsAnEncodingError() throws {
        var bytes = try Self.bytes("apple-sample-utf16le.plist")
        // A lone low surrogate in place of the first "<" of "<plist".
        let plist = try #require(bytes.firstRange(of: Array("<\0p\0l\0i\0s\0t\0".utf8)))
        bytes[plist.lowerBound] = 0x00
        bytes[plist.lowerBound + 1] = 0xDC
        var errors = [PlistFixtures.read(bytes, codec: PlistXMLCodec()).error]
        do throws(FerryError) {
            _ = try XMLPlistParser.parse(bytes, name: "test")
        } catch {
            errors.append(error)
        }
        #expect(errors.count == 2)
        for error in errors {
            #expect(error?.code == .encodingInvalidUTF16)
            #expect(error?.location.byteOffset == plist.lowerBound)
            #expect(error?.location.file == "test")
        }
    }

    @Test func utf16ParsesWhole() throws {
        let bytes = try Self.bytes("apple-sample-utf16be.plist")
        let value = try XMLPlistParser.parse(bytes)
        #expect(try value.recordValue() == Self.object(Self.sample))
    }
}
