import FerryKit
import FerryPlist
import Foundation
import Testing

/// Records to XML and back keep every value type; the bytes look like
/// plutil's; reading in tiny chunks gives what reading whole gives.
@Suite struct XMLPlistRoundTripTests {
    @Test func recordsRoundTripWithEveryValueType() throws {
        let bytes = try XMLPlistTest.write(XMLPlistSamples.records)
        let read = try XMLPlistTest.records(MemoryInput(bytes))
        #expect(read == XMLPlistSamples.records)
        #expect(read.map(\.origin.index) == Array(0..<read.count))
        for (back, original) in zip(read, XMLPlistSamples.records) {
            #expect(back.fields.names == original.fields.names)
        }
        // Consecutive records with the same keys share one field list.
        #expect(read[0].fields === read[1].fields)
        // The whole document parses too, as an array of dictionaries.
        guard case .array(let elements) = try XMLPlistParser.parse(MemoryInput(bytes)) else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == XMLPlistSamples.records.count)
    }

    @Test func goldenBytes() throws {
        let record = Record([
            ("name", .string("A & B <c> ü\r")), ("n", .integer(-3)), ("price", .double(19.99)), ("nothing", .null),
            ("on", .bool(true)), ("when", .date(XMLPlistSamples.date)), ("photo", .bytes([0, 1, 2, 3])),
            ("list", .array([.double(1e300), .array([]), .object(OrderedObject())])),
        ])
        let expected =
            XMLPlistTest.header + """
                <array>
                \t<dict>
                \t\t<key>name</key>
                \t\t<string>A &amp; B &lt;c&gt; ü&#13;</string>
                \t\t<key>n</key>
                \t\t<integer>-3</integer>
                \t\t<key>price</key>
                \t\t<real>19.99</real>
                \t\t<key>on</key>
                \t\t<true/>
                \t\t<key>when</key>
                \t\t<date>2017-10-07T12:30:00Z</date>
                \t\t<key>photo</key>
                \t\t<data>
                \t\tAAECAw==
                \t\t</data>
                \t\t<key>list</key>
                \t\t<array>
                \t\t\t<real>1e+300</real>
                \t\t\t<array/>
                \t\t\t<dict/>
                \t\t</array>
                \t</dict>
                \t<dict/>
                </array>
                </plist>

                """
        let bytes = try XMLPlistTest.write([record, Record([("gone", .null)])])
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        let read = try XMLPlistTest.records(MemoryInput(bytes))
        #expect(read.count == 2)
        #expect(read[0]["nothing"] == nil)
        #expect(read[0]["name"] == .string("A & B <c> ü\r"))
        #expect(read[1].fields.count == 0)
    }

    @Test func noRecordsIsAnEmptyArray() throws {
        let bytes = try XMLPlistTest.write([])
        #expect(String(decoding: bytes, as: UTF8.self) == XMLPlistTest.header + "<array/>\n</plist>\n")
        #expect(try XMLPlistTest.records(MemoryInput(bytes)).isEmpty)
    }

    @Test func dataIsWrappedAt76Characters() throws {
        let bytes = try XMLPlistWriter.document(.data(Array(repeating: 0xAB, count: 100)))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines[3] == "<data>")
        #expect(lines[4].count == 76)
        #expect(lines[5].count == 136 - 76)
        #expect(lines[6] == "</data>")
        #expect(try XMLPlistParser.parse(bytes) == .data(Array(repeating: 0xAB, count: 100)))
    }

    @Test func documentsRoundTripEveryPlistValue() throws {
        let value = PlistValue.dictionary(
            PlistDictionary([
                ("uid", .uid(7)), ("big", .unsignedInteger(UInt64.max)), ("min", .integer(Int64.min)),
                ("inf", .real(.infinity)), ("minusInf", .real(-.infinity)), ("zero", .real(-0.0)),
                ("text", .string("<&>\u{10FFFF}")), ("objects", .array([.uid(0), .uid(UInt64(UInt32.max))])),
                ("empty", .dictionary(PlistDictionary())), ("d", .date(XMLPlistSamples.date)), ("b", .bool(false)),
            ]))
        let bytes = try XMLPlistWriter.document(value)
        #expect(try XMLPlistParser.parse(bytes) == value)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("<key>CF$UID</key>\n\t\t<integer>7</integer>"))
        #expect(text.contains("<real>+infinity</real>") && text.contains("<real>-infinity</real>"))
        guard case .real(let number) = try XMLPlistParser.parse(try XMLPlistWriter.document(.real(.nan))) else {
            Issue.record("nan did not read back as a real")
            return
        }
        #expect(number.isNaN)
    }

    @Test func writerRefusesWhatXMLCannotHold() throws {
        for (text, scalar) in [
            ("a\u{1}b", "U+0001"), ("\u{0}", "U+0000"), ("x\u{FFFE}", "U+FFFE"), ("\u{FFFF}", "U+FFFF"),
            ("\u{1F}", "U+001F"),
        ] {
            let record = Record(
                fields: FieldList(["ok", "bad"]), values: [.integer(1), .string(text)], origin: RecordOrigin(index: 4))
            do throws(FerryError) {
                _ = try XMLPlistTest.write([record])
                Issue.record("wrote \(text.debugDescription)")
            } catch {
                #expect(error.code == .xmlPlistInvalidCharacter)
                #expect(error.arguments == [.string(scalar)])
                #expect(error.location.record == 4)
                #expect(error.location.field == "bad")
            }
        }
        // A bad key, and a bad string deep inside a value, name the field.
        let nested = Record([("outer", .object(OrderedObject([("k", .array([.string("\u{8}")]))])))])
        do throws(FerryError) {
            _ = try XMLPlistTest.write([nested])
            Issue.record("wrote a backspace")
        } catch {
            #expect(error.code == .xmlPlistInvalidCharacter)
            #expect(error.location.field == "outer")
        }
        do throws(FerryError) {
            _ = try XMLPlistTest.write([Record([("a\u{B}", .integer(1))])])
            Issue.record("wrote a vertical tab in a key")
        } catch {
            #expect(error.code == .xmlPlistInvalidCharacter)
            #expect(error.location.field == "a\u{B}")
        }
        // Tab, LF and CR are allowed; U+FFFD and other BMP characters too.
        let allowed = Record([("s", .string("\t\n\r\u{FFFD}\u{FFEF}\u{E000}"))])
        #expect(try XMLPlistTest.records(MemoryInput(try XMLPlistTest.write([allowed]))) == [allowed])
        #expect(throws: FerryError.xmlPlistNullValue()) { try XMLPlistWriter.document(.array([.null])) }
    }

    @Test func nullInAnArrayIsRefused() throws {
        let record = Record([("list", .array([.integer(1), .null]))])
        do throws(FerryError) {
            _ = try XMLPlistTest.write([record])
            Issue.record("wrote null in an array")
        } catch {
            #expect(error.code == .plistNullInArray)
            #expect(error.location.field == "list")
        }
    }

    // MARK: - Streaming

    static let seeds: [UInt64] = [1, 2, 3, 42, 1_000, 0xDEAD_BEEF, 77_777, 123_456_789]

    /// A document with comments, CDATA, references, CRLF line ends and a BOM,
    /// so that refills land inside every construct.
    static let streamed: [UInt8] = {
        var text = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
        text +=
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\r\n"
        text += "<plist version='1.0'>\r\n<!-- records -->\r\n<array>\r\n"
        for index in 0..<50 {
            text +=
                "\t<dict>\r\n\t\t<key>name</key>\r\n\t\t<string>item \(index) &amp; caf&#233; &#x1F600; <![CDATA[<raw> & ]]>😀<!-- note --> x</string>\r\n"
            text +=
                "\t\t<key>price</key><real> \(index).99 </real>\r\n\t\t<key>count</key><integer>0x\(String(index, radix: 16))</integer>\r\n"
            text += "\t\t<key>ok</key><\(index % 2 == 0 ? "true" : "false")/>\r\n"
            text += "\t\t<key>when</key><date>2017-10-07T12:30:0\(index % 10)Z</date>\r\n"
            text += "\t\t<key>photo</key><data>\r\n\t\tAAEC\r\n\t\tAw==\r\n\t\t</data>\r\n"
            text += "\t\t<key>nested</key><dict><key>a</key><array><string/><dict/><array/></array></dict>\r\n"
            if index % 7 == 3 { text += "\t\t<key>extra</key><string>line\r\nbreak\rlone</string>\r\n" }
            text += "\t</dict>\r\n"
        }
        return Array((text + "</array>\r\n</plist>\r\n<!-- end -->\r\n").utf8)
    }()

    @Test(arguments: seeds)
    func readingInChunksMatchesReadingWhole(seed: UInt64) throws {
        let whole = try XMLPlistTest.records(MemoryInput(Self.streamed))
        #expect(whole.count == 50)
        #expect(whole[3]["extra"] == .string("line\nbreak\nlone"))
        #expect(whole[1]["name"] == .string("item 1 & café 😀 <raw> & 😀 x"))
        #expect(whole[26]["count"] == .integer(26))
        let chunked = try XMLPlistTest.records(xmlTrickleInput(Self.streamed, seed: seed))
        #expect(chunked == whole)
        #expect(chunked.map(\.origin) == whole.map(\.origin))
    }

    @Test(arguments: seeds)
    func writtenRecordsReadInChunks(seed: UInt64) throws {
        let bytes = try XMLPlistTest.write(XMLPlistSamples.records)
        #expect(try XMLPlistTest.records(xmlTrickleInput(bytes, seed: seed)) == XMLPlistSamples.records)
    }

    @Test func originsPointAtEachDict() throws {
        let text =
            XMLPlistTest.header
            + "<array>\n\t<dict><key>a</key><integer>1</integer></dict>\n\t<dict/>\n</array>\n</plist>\n"
        let bytes = Array(text.utf8)
        let reader = try XMLPlistReader(MemoryInput(bytes))
        var origins: [RecordOrigin] = []
        var places: [[Int?]] = []
        while let record = try reader.next() {
            origins.append(record.origin)
            let location = reader.location(ofByteOffset: record.origin.byteOffset)
            places.append([location.line, location.column])
        }
        #expect(origins.map(\.index) == [0, 1])
        #expect(places == [[5, 2], [6, 2]])
        for origin in origins {
            #expect(bytes[origin.byteOffset..<(origin.byteOffset + 5)].elementsEqual("<dict".utf8))
        }
    }

    @Test func aRootDictIsOneRecord() throws {
        let records = try XMLPlistTest.records(
            "<dict><key>a</key><string>x</string><key>a</key><integer>2</integer></dict>")
        #expect(records == [Record([("a", .integer(2))])])
    }
}
