import FerryTestSupport
import FerryKit
import FerryPlist
import Foundation
import Testing

/// Whole documents into `PlistValue`: the swift-corelibs-foundation keyed
/// archives, every scalar form CoreFoundation writes, and the XML around them.
@Suite struct XMLPlistParserTests {
    static let corpus = TestPaths.corpus("keyed-archives/swift-corelibs-foundation").path

    /// The corpus files that are XML (binary plists start with `bplist`).
    static let xmlArchives: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []
        return names.filter { name in
            guard name.hasPrefix("NSKeyedUnarchiver-") && name.hasSuffix(".plist"),
                let handle = FileHandle(forReadingAtPath: corpus + "/" + name)
            else { return false }
            defer { try? handle.close() }
            let head = (try? handle.read(upToCount: 6)) ?? Data()
            return head.elementsEqual("<?xml ".utf8)
        }.sorted()
    }()

    @Test(.enabled(if: !xmlArchives.isEmpty, "the keyed-archive corpus is not on this machine"), arguments: xmlArchives)
    func keyedArchivesFromFoundation(_ name: String) throws {
        let input = try FileInput(path: Self.corpus + "/" + name)
        let root = try XMLPlistParser.parse(input)
        guard case .dictionary(let archive) = root else {
            Issue.record("\(name): the root is not a dictionary")
            return
        }
        #expect(archive["$archiver"] == .string("NSKeyedArchiver"))
        #expect(archive["$version"] == .integer(100000))
        guard case .array(let objects) = archive["$objects"], case .dictionary(let top) = archive["$top"] else {
            Issue.record("\(name): no $objects or $top")
            return
        }
        #expect(objects.first == .string("$null"))
        // Every CF$UID dictionary became a UID that points into $objects.
        var uids: [UInt64] = []
        func collect(_ value: PlistValue) {
            switch value {
            case .uid(let index): uids.append(index)
            case .array(let elements): elements.forEach(collect)
            case .dictionary(let dictionary):
                #expect(dictionary["CF$UID"] == nil)
                dictionary.values.forEach(collect)
            default: break
            }
        }
        collect(root)
        #expect(!uids.isEmpty)
        #expect(uids.allSatisfy { $0 < objects.count })
        #expect(top.values.allSatisfy { if case .uid = $0 { true } else { false } })
    }

    @Test func arrayArchiveHoldsItsValues() throws {
        let path = Self.corpus + "/NSKeyedUnarchiver-ArrayTest.plist"
        try #require(FileManager.default.fileExists(atPath: path))
        let root = try XMLPlistParser.parse(try FileInput(path: path))
        guard case .dictionary(let archive) = root, case .array(let objects) = archive["$objects"] else {
            Issue.record("not an archive")
            return
        }
        #expect(archive["$top"] == .dictionary(PlistDictionary([("root", .uid(1))])))
        #expect(Array(objects[2...4]) == [.string("baa"), .string("black"), .string("sheep")])
        guard case .dictionary(let array) = objects[1] else {
            Issue.record("object 1 is not a dictionary")
            return
        }
        #expect(array["$class"] == .uid(5))
        #expect(array["NS.objects"] == .array([.uid(2), .uid(2), .uid(3), .uid(4)]))
    }

    // MARK: - Scalars

    @Test(arguments: [
        ("<integer>42</integer>", PlistValue.integer(42)),
        ("<integer> -17 </integer>", .integer(-17)),
        ("<integer>+5</integer>", .number(NumberText(unchecked: "+5"))),
        ("<integer>0x1F</integer>", .integer(31)),
        ("<integer>-0x10</integer>", .integer(-16)),
        ("<integer>9223372036854775807</integer>", .integer(Int64.max)),
        ("<integer>-9223372036854775808</integer>", .integer(Int64.min)),
        ("<integer>9223372036854775808</integer>", .unsignedInteger(1 << 63)),
        ("<integer>18446744073709551615</integer>", .unsignedInteger(UInt64.max)),
        ("<integer>0xFFFFFFFFFFFFFFFF</integer>", .unsignedInteger(UInt64.max)),
        ("<real>19.99</real>", .real(19.99)),
        ("<real>0.1</real>", .real(0.1)),
        ("<real>1e300</real>", .number(NumberText(unchecked: "1e300"))),
        ("<real>-2.5E-3</real>", .number(NumberText(unchecked: "-2.5E-3"))),
        ("<real>.5</real>", .number(NumberText(unchecked: ".5"))),
        ("<real>7</real>", .real(7)),
        ("<real>inf</real>", .real(.infinity)),
        ("<real>+infinity</real>", .real(.infinity)),
        ("<real>-infinity</real>", .real(-.infinity)),
        ("<real>-INF</real>", .real(-.infinity)),
        ("<true/>", .bool(true)),
        ("<false/>", .bool(false)),
        ("<true></true>", .bool(true)),
        ("<date>2017-10-07T12:30:00Z</date>", .date(Date(timeIntervalSince1970: 1_507_379_400))),
        ("<date>1970-01-01T00:00:00Z</date>", .date(Date(timeIntervalSince1970: 0))),
        ("<date>2001-01-01T00:00:00Z</date>", .date(Date(timeIntervalSince1970: PlistValue.epochOffset))),
        ("<date>1900-02-28T23:59:59Z</date>", .date(Date(timeIntervalSince1970: -2_203_891_201))),
        ("<date>2024-02-29T00:00:00.5Z</date>", .date(Date(timeIntervalSince1970: 1_709_164_800.5))),
        ("<data>AAEC\n\tAw==\n</data>", .data([0, 1, 2, 3])),
        ("<data></data>", .data([])),
        ("<data/>", .data([])),
        ("<string/>", .string("")),
        ("<string></string>", .string("")),
        ("<string>  spaced  </string>", .string("  spaced  ")),
        ("<string>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;</string>", .string("<>&\"'AB😀")),
        ("<string><![CDATA[<not markup> & ]]></string>", .string("<not markup> & ")),
        ("<string>a<!-- gone -->b<?pi x?>c</string>", .string("abc")),
        ("<string>a\r\nb\rc</string>", .string("a\nb\nc")),
        ("<array/>", .array([])),
        ("<dict/>", .dictionary(PlistDictionary())),
        ("<dict><key/><string>empty key</string></dict>", .dictionary(PlistDictionary([("", .string("empty key"))]))),
    ])
    func scalarForms(_ element: String, _ expected: PlistValue) throws {
        #expect(try XMLPlistTest.parse(element) == expected)
        #expect(try XMLPlistTest.parse(XMLPlistTest.header + element + "\n</plist>\n") == expected)
    }

    @Test func nanReadsAsNaN() throws {
        guard case .real(let number) = try XMLPlistTest.parse("<plist><real>nan</real></plist>") else {
            Issue.record("not a real")
            return
        }
        #expect(number.isNaN)
    }

    @Test(arguments: [
        // Not UIDs: another key, a second key, a negative or non-integer value.
        "<dict><key>CF$UID</key><integer>-1</integer></dict>",
        "<dict><key>CF$UID</key><string>1</string></dict>",
        "<dict><key>CF$UID</key><integer>1</integer><key>x</key><integer>1</integer></dict>",
        "<dict><key>CF$UIDs</key><integer>1</integer></dict>",
    ])
    func dictionariesThatAreNotUIDs(_ text: String) throws {
        guard case .dictionary = try XMLPlistTest.parse(text) else {
            Issue.record("\(text) is not a dictionary")
            return
        }
    }

    @Test func uidsAndDuplicateKeys() throws {
        #expect(try XMLPlistTest.parse("<dict><key>CF$UID</key><integer>12</integer></dict>") == .uid(12))
        let text = "<dict><key>a</key><integer>1</integer><key>b</key><true/><key>a</key><integer>3</integer></dict>"
        #expect(try XMLPlistTest.parse(text) == .dictionary(PlistDictionary([("a", .integer(3)), ("b", .bool(true))])))
        // Canonically equivalent keys stay apart.
        let equivalent =
            "<dict><key>caf\u{E9}</key><integer>1</integer><key>cafe\u{301}</key><integer>2</integer></dict>"
        guard case .dictionary(let dictionary) = try XMLPlistTest.parse(equivalent) else {
            Issue.record("not a dictionary")
            return
        }
        #expect(dictionary.count == 2)
        // Many keys, some repeated, go through the hashed path.
        var many = "<dict>"
        for index in 0..<100 { many += "<key>k\(index % 60)</key><integer>\(index)</integer>" }
        guard case .dictionary(let large) = try XMLPlistTest.parse(many + "</dict>") else {
            Issue.record("not a dictionary")
            return
        }
        #expect(large.count == 60)
        #expect(large["k5"] == .integer(65))
        #expect(large["k59"] == .integer(59))
    }

    @Test func prologAndDoctypeAreSkipped() throws {
        let text = """
            \u{FEFF}  <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <!-- a comment with <tags> & stuff -->
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" [
              <!ELEMENT plist ANY> <!-- no entities here: "]>" -->
            ]>
            <plist version = "1.0" >
              <array> <string>x</string> </array >
            </plist>
            <!-- trailing -->

            """
        #expect(try XMLPlistTest.parse(text) == .array([.string("x")]))
    }

    @Test func deepButAllowedNestingParses() throws {
        let depth = 512
        let text = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        var value = try XMLPlistTest.parse(text)
        var levels = 1
        while case .array(let elements) = value, let first = elements.first {
            value = first
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test func codecSniffsWithoutClaimingCertainty() {
        let codec = PlistXMLCodec()
        #expect(codec.id == "plist-xml")
        #expect(codec.sniff(Array(XMLPlistTest.header.utf8)) == .likely)
        #expect(codec.sniff(Array("\u{FEFF}\n <plist version=\"1.0\">".utf8)) == .likely)
        #expect(codec.sniff(Array("<!DOCTYPE plist PUBLIC".utf8)) == .likely)
        #expect(codec.sniff(Array("<?xml version=\"1.0\"?><feed>".utf8)) == .possible)
        #expect(codec.sniff(Array("bplist00".utf8)) == .no)
        #expect(codec.sniff(Array("[{\"a\":1}]".utf8)) == .no)
    }

    @Test func lintAcceptsScalarsAndReadsCorpusFiles() throws {
        let codec = PlistXMLCodec()
        try codec.lint(MemoryInput("<plist><string>just text</string></plist>"), context: ReadContext())
        #expect(throws: FerryError.self) {
            try codec.lint(MemoryInput("<plist><string>x</plist>"), context: ReadContext())
        }
        let reader = try codec.makeReader(
            MemoryInput("<array><dict><key>a</key><integer>1</integer></dict></array>"), context: ReadContext())
        #expect(try reader.next() == Record([("a", .integer(1))]))
        #expect(try reader.next() == nil)
    }
}
