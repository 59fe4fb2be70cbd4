import Foundation
import Testing

@testable import FerryKit
@testable import FerryPlist

@Suite struct KeyedArchiveTests {
    /// The value the root of a corpus archive decodes to.
    static func root(_ path: String) throws -> Value {
        let bytes = try PlistFixtures.bytes(PlistFixtures.corpus("keyed-archives/\(path)"))
        let objects = try ArchiveCodec.objects(MemoryInput(bytes, name: path), limits: ReadLimits())
        var decoder = KeyedArchiveDecoder(objects, limits: ReadLimits())
        return try decoder.value(uid: objects.root, depth: 1)
    }

    static func records(_ path: String, options: [String: String] = [:]) throws -> (records: [Record], error: FerryError?) {
        let bytes = try PlistFixtures.bytes(PlistFixtures.corpus("keyed-archives/\(path)"))
        let read = PlistFixtures.read(bytes, codec: ArchiveCodec(), options: options)
        return (read.records, read.error)
    }

    static func object(_ pairs: [(String, Value)]) -> Value { .object(OrderedObject(pairs)) }

    /// bpylist2's class `crap.Foo` derives from NSCoder: its records list it.
    static let fooChain = ("$classes", Value.array([.string("crap.Foo"), .string("NSCoder"), .string("NSObject")]))

    // MARK: - bpylist2

    @Test func bpylist2ArchivesDecodeToWhatTheirNamesSay() throws {
        #expect(try Self.root("bpylist2/simple_archive.plist") == Self.object([
            ("$class", .string("crap.Foo")), Self.fooChain, ("title", .string("yo")), ("count", .integer(42)), ("active", .bool(true)),
        ]))
        #expect(try Self.root("bpylist2/null_archive.plist") == Self.object([
            ("$class", .string("crap.Foo")), Self.fooChain, ("title", .string("yo")), ("empty", .null),
        ]))
        #expect(try Self.root("bpylist2/empty_archive.plist") == Self.object([("$class", .string("crap.Foo")), Self.fooChain]))
        #expect(try Self.root("bpylist2/complex_archive.plist") == Self.object([
            ("$class", .string("crap.Foo")), Self.fooChain,
            ("metadata", Self.object([("fruit", .string("kiwi")), ("veg", .string("asparagus"))])),
            ("title", .string("yo")), ("count", .integer(42)), ("active", .bool(true)),
            ("categories", .array([.string("banana"), .string("apple")])),
        ]))
        #expect(try Self.root("bpylist2/recursive_archive.plist") == Self.object([
            ("$class", .string("crap.Foo")), Self.fooChain, ("title", .string("hello")),
            ("recursive", Self.object([("$class", .string("crap.Foo")), Self.fooChain, ("title", .string("yo")), ("recursive", .null)])),
        ]))
        #expect(try Self.root("bpylist2/dataclass_archive.plist") == Self.object([
            ("$class", .string("FooDataclass")), ("$classes", .array([.string("FooDataclass")])), ("int_field", .integer(5)), ("str_field", .string("hello")),
            ("float_field", .double(3.15)), ("list_field", .array([.string("foo"), .string("bar"), .string("baz")])),
        ]))
        #expect(try Self.root("bpylist2/data_archive.plist") == Self.object([
            ("$class", .string("crap.Foo")), Self.fooChain, ("title", .string("yo")), ("stamp", .bytes([])),
        ]))
        #expect(try Self.root("bpylist2/nsmutabledata_archive.plist") == .bytes(Array("hello".utf8)))
        guard case .object(let dated) = try Self.root("bpylist2/date_archive.plist"), case .date(let stamp)? = dated["stamp"]
        else { Issue.record("no date"); return }
        // NS.time is 509523358.684097: text keeps its microseconds.
        #expect(Timestamp.iso8601(stamp) == "2017-02-23T06:15:58.684097Z")
    }

    @Test(arguments: [
        ("bpylist2/circular_archive.plist", "archive.cycle"),
        ("bpylist2/invalid_type_archive.plist", "archive.unknownArchiver"),
        ("bpylist2/invalid_version_archive.plist", "archive.unsupportedVersion"),
        ("bpylist2/invalid_uid_archive.plist", "archive.uidOutOfRange"),
        ("bpylist2/missing_uid_archive.plist", "archive.missingClass"),
        ("bpylist2/no_class_meta_archive.plist", "archive.invalidClass"),
        ("bpylist2/no_class_name_archive.plist", "archive.invalidClass"),
        ("bpylist2/no_objects_archive.plist", "archive.missingHeader"),
        ("bpylist2/no_root_archive.plist", "archive.missingHeader"),
        ("bpylist2/no_top_archive.plist", "archive.missingHeader"),
        ("rust-plist/binary_NSKeyedArchiver.plist", "archive.missingHeader"),
        ("libplist/recursion.bplist", "archive.missingHeader"),
        ("libplist/uid.bplist", "archive.notArchive"),
        ("rust-plist/binary_zero_offset_size.plist", "bplist.invalidTrailer"),
    ])
    func brokenArchivesFailWithTheirCodes(path: String, code: String) throws {
        let (_, error) = try Self.records(path)
        #expect(error?.code.rawValue == code)
        #expect(error?.location.file == "test")
    }

    @Test func theCycleIsNamedByItsObject() throws {
        let (_, error) = try Self.records("bpylist2/circular_archive.plist")
        #expect(error?.arguments == [.integer(1)])
        #expect(error?.location.byteOffset != nil)
        #expect(error?.location.record == 0)
    }

    /// A header value is shown as it is, or by its type's name in the reader's language.
    @Test func wrongHeaderValuesAreShownInTheReadersLanguage() throws {
        func error(archiver: PlistValue, version: PlistValue) throws -> FerryError? {
            let archive = PlistValue.dictionary(PlistDictionary([
                ("$version", version), ("$archiver", archiver),
                ("$top", .dictionary(PlistDictionary([("root", .uid(0))]))), ("$objects", .array([.string("$null")])),
            ]))
            return PlistFixtures.read(try PlistFixtures.encode(archive), codec: ArchiveCodec()).error
        }
        let dictionary = PlistValue.dictionary(PlistDictionary())
        #expect(try error(archiver: dictionary, version: .integer(100_000))?.arguments == [.message(.typeDict)])
        #expect(try error(archiver: .string("Mine"), version: .integer(100_000))?.arguments == [.string("Mine")])
        #expect(try error(archiver: .string("NSKeyedArchiver"), version: .integer(200_000))?.arguments == [.ungrouped(200_000)])
        #expect(try error(archiver: .string("NSKeyedArchiver"), version: .real(1))?.arguments == [.message(.typeReal)])
    }

    @Test func fullChangeLogKeepsItsCustomClasses() throws {
        let (records, error) = try Self.records("bpylist2/fullChangeLog.bplist")
        #expect(error == nil)
        #expect(records.count == 1)
        guard case .array(let columns)? = records.first?["columns"] else { Issue.record("no columns"); return }
        #expect(columns.count == 7)
        guard case .object(let first) = columns[0] else { Issue.record("column is no object"); return }
        #expect(first["$class"] == .string("JNStreamTableUInt8Column"))
        #expect(first["keyPath"] == .string("changeType"))
        #expect(records.first?["tableID"] == .string("fullChangeLog"))
        #expect(records.first?["$class"] == .string("JNStreamTable"))
    }

    // MARK: - swift-corelibs-foundation

    @Test func complexTestHoldsFoundationClasses() throws {
        #expect(try Self.root("swift-corelibs-foundation/NSKeyedUnarchiver-ComplexTest.plist") == Self.object([
            ("array", .array([.null, .string("hello"), .integer(34545), Self.object([("key", .string("val"))])])),
            ("string", .string("hello")),
            ("url", .string("https://www.swift.org/index.xml")),
            ("uuid", .string("71DC068E-3420-45FF-919E-3A267D55EC22")),
        ]))
    }

    @Test func xmlArchivesDecode() throws {
        #expect(try Self.root("swift-corelibs-foundation/NSKeyedUnarchiver-ArrayTest.plist")
            == .array([.string("baa"), .string("baa"), .string("black"), .string("sheep")]))
        #expect(try Self.root("swift-corelibs-foundation/NSKeyedUnarchiver-OrderedSetTest.plist")
            == .array([.string("valgeir"), .string("nico"), .string("puzzle")]))
        #expect(try Self.root("swift-corelibs-foundation/NSKeyedUnarchiver-URLTest.plist")
            == .string("https://www.example.com/foo.xml"))
        #expect(try Self.root("swift-corelibs-foundation/NSKeyedUnarchiver-UUIDTest.plist")
            == .string("0AD863BA-7584-40CF-8896-BD87B3280C34"))
        guard case .object(let range) = try Self.root("swift-corelibs-foundation/NSKeyedUnarchiver-RangeTest.plist")
        else { Issue.record("no range"); return }
        #expect(range["NS.rangeval.location"] == .integer(97345))
        #expect(range["NS.rangeval.length"] == .integer(98345))
    }

    @Test func macOSArchivesDecode() throws {
        let numbers: Set<Value> = Set((1...5).map { Value.integer(Int64($0)) })
        #expect(try Self.root("swift-corelibs-foundation/NSOrderedSet-Numbers.archive")
            == .array((1...5).map { .integer(Int64($0)) }))
        guard case .array(let set) = try Self.root("swift-corelibs-foundation/NSSet-Numbers.archive"),
            case .array(let counted) = try Self.root("swift-corelibs-foundation/NSCountedSet-NumbersAppearingSeveralTimes.archive")
        else { Issue.record("sets are no arrays"); return }
        #expect(Set(set) == numbers)
        #expect(Set(counted) == numbers)
        #expect(try Self.root("swift-corelibs-foundation/NSSet-Empty.archive") == .array([]))
        #expect(try Self.root("swift-corelibs-foundation/NSOrderedSet-Empty.archive") == .array([]))
        guard case .object(let text) = try Self.root("swift-corelibs-foundation/NSAttributedString.archive"),
            case .object(let measurement) = try Self.root("swift-corelibs-foundation/NSMeasurement-Length.archive"),
            case .object(let unit)? = measurement["NS.unit"],
            case .object(let indexes) = try Self.root("swift-corelibs-foundation/NSIndexSet-ManyRanges.archive")
        else { Issue.record("objects missing"); return }
        #expect(text["NSString"] == .string("0123456789"))
        #expect(measurement["NS.value"] == .double(45))
        #expect(unit["NS.symbol"] == .string("mi"))
        #expect(indexes["NSRangeCount"] == .integer(4))
    }

    /// Every file of the corpus converts or fails with a coded error.
    @Test(arguments: try PlistFixtures.corpusFiles("keyed-archives/bpylist2")
        + PlistFixtures.corpusFiles("keyed-archives/swift-corelibs-foundation")
        + PlistFixtures.corpusFiles("keyed-archives/rust-plist") + PlistFixtures.corpusFiles("keyed-archives/libplist"))
    func everyCorpusFileConvertsOrFailsWithACode(file: URL) throws {
        let read = PlistFixtures.read(try PlistFixtures.bytes(file), codec: ArchiveCodec())
        if let error = read.error {
            #expect(["archive.", "bplist.", "xmlplist.", "format.", "limit."].contains { error.code.rawValue.hasPrefix($0) })
        } else {
            #expect(!read.records.isEmpty || file.lastPathComponent.contains("Empty"))
        }
    }

    // MARK: - Kinds and photos

    @Test func theLegacyExampleHoldsThreeProductsWithPhotos() throws {
        let bytes = try PlistFixtures.bytes(PlistFixtures.packageRoot.appendingPathComponent("Examples/Products"))
        let read = PlistFixtures.read(bytes, codec: ArchiveCodec())
        #expect(read.error == nil)
        let readerKind = try ArchiveCodec().makeReader(MemoryInput(bytes), context: ReadContext())
        _ = try readerKind.next()
        #expect(readerKind.declaredKind == .product)
        #expect(read.records.map { $0["name"] } == [.string("Xbox 360"), .string("Wii"), .string("Wireless Controller")])
        #expect(read.records.map { $0["price"] } == [.double(299), .double(269), .double(19.99)])
        for (record, file) in zip(read.records, ["xbox-360.png", "wii.png", "wireless-controller.png"]) {
            let png = try PlistFixtures.bytes(PlistFixtures.packageRoot.appendingPathComponent("Examples/photos/\(file)"))
            #expect(record["photo"] == .bytes(png))
            #expect(record["$class"] == nil)
        }
    }

    @Test func classesMapToKinds() throws {
        #expect(ClassMap().kind(of: "Product") == .product)
        #expect(ClassMap().kind(of: "GameStoreiOS.Product") == .product)
        #expect(ClassMap().kind(of: "BookStore.Book") == .book)
        #expect(ClassMap().kind(of: "ProductCell") == nil)
        let map = try ClassMap(parsing: "Item=product,MyApp.Volume=book")
        #expect(map.kind(of: "Item") == .product)
        #expect(map.kind(of: "MyApp.Volume") == .book)
        #expect(throws: FerryError.self) { try ClassMap(parsing: "Item=car") }
        #expect(throws: FerryError.self) { try ClassMap(parsing: "=product") }
    }

    /// Archives of every kind, written by Ferry, read back by Ferry.
    @Test func writtenArchivesReadBack() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        let products = [
            Record([("name", .string("Xbox 360")), ("price", .integer(299)), ("photo", .bytes(png))]),
            Record([("name", .string("Wii")), ("price", .double(269)), ("photo", .null)]),
        ]
        let archive = try PlistFixtures.write(products, codec: ArchiveCodec(), kind: .product)
        let read = PlistFixtures.read(archive, codec: ArchiveCodec())
        #expect(read.error == nil)
        // A null photo is a `$null` reference, read back as null.
        #expect(read.records.map(\.pairs.count) == [3, 3])
        #expect(read.records.first?["price"] == .double(299))
        #expect(read.records.first?["photo"] == .bytes(png))
        #expect(read.records.last?["photo"] == .null)

        let date = Date(timeIntervalSince1970: 1_500_000_000)
        let generic = [
            Record([
                ("when", .date(date)), ("tags", .array([.string("a"), .integer(2)])),
                ("nested", Self.object([("deep", .bool(true))])), ("blob", .bytes([1, 2])), ("missing", .null),
            ])
        ]
        let genericArchive = try PlistFixtures.write(generic, codec: ArchiveCodec(), kind: .generic)
        let genericRead = PlistFixtures.read(genericArchive, codec: ArchiveCodec())
        #expect(genericRead.error == nil)
        // In an NSDictionary, which cannot hold nil, null is an NSNull.
        #expect(genericRead.records.first?.pairs.map(\.0) == ["when", "tags", "nested", "blob", "missing"])
        #expect(genericRead.records.first?["missing"] == .null)
        #expect(genericRead.records.first?["when"] == .date(date))
        #expect(genericRead.records.first?["tags"] == .array([.string("a"), .integer(2)]))
        #expect(genericRead.records.first?["nested"] == Self.object([("deep", .bool(true))]))

        let named = try PlistFixtures.write(products, codec: ArchiveCodec(), kind: .product, options: ["class-name": "Shop.Item"])
        #expect(PlistFixtures.read(named, codec: ArchiveCodec()).records.first?["$class"] == .string("Shop.Item"))
        let mapped = PlistFixtures.read(named, codec: ArchiveCodec(), options: ["class-map": "Shop.Item=product"])
        #expect(mapped.records.first?["$class"] == nil)
    }

    /// A UIImage that only names the app's bundled image has no bytes: the
    /// photo is null and a warning names the image.
    @Test func namedImagesBecomeNullWithAWarning() throws {
        var objects: [PlistValue] = [.string("$null")]
        objects.append(.dictionary(PlistDictionary([("NS.objects", .array([.uid(2)])), ("$class", .uid(6))])))
        objects.append(.dictionary(PlistDictionary([("name", .uid(3)), ("photo", .uid(4)), ("price", .real(19.99)), ("$class", .uid(7))])))
        objects.append(.string("Wireless Controller"))
        objects.append(.dictionary(PlistDictionary([("UIImageName", .uid(5)), ("$class", .uid(8))])))
        objects.append(.string("controller"))
        for name in ["NSArray", "GameStoreiOS.Product", "UIImage"] {
            objects.append(.dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))])))
        }
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        let read = PlistFixtures.read(try PlistFixtures.encode(archive), codec: ArchiveCodec())
        #expect(read.error == nil)
        #expect(read.records.first?["photo"] == .null)
        let warnings = read.context.takeWarnings()
        #expect(warnings.map(\.code) == [.archiveNamedImage])
        #expect(warnings.first?.arguments == [.string("controller")])
        #expect(warnings.first?.location.record == 0)
    }

    /// Any collection class Foundation has can hold the records, NSCountedSet
    /// (with its `NS.object0` keys) included.
    @Test func aCountedSetRootHoldsRecords() throws {
        let objects: [PlistValue] = [
            .string("$null"),
            .dictionary(PlistDictionary([("NS.object0", .uid(2)), ("NS.count0", .integer(1)), ("$class", .uid(4))])),
            .dictionary(PlistDictionary([("name", .uid(3)), ("price", .real(19.99)), ("$class", .uid(5))])),
            .string("Wii"),
            .dictionary(PlistDictionary([
                ("$classname", .string("NSCountedSet")),
                ("$classes", .array([.string("NSCountedSet"), .string("NSMutableSet"), .string("NSSet")])),
            ])),
            .dictionary(PlistDictionary([("$classname", .string("Shop.Product")), ("$classes", .array([.string("Shop.Product")]))])),
        ]
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        let read = PlistFixtures.read(try PlistFixtures.encode(archive), codec: ArchiveCodec())
        #expect(read.error == nil)
        #expect(read.records.map(\.pairs.count) == [2])
        #expect(read.records.first?["name"] == .string("Wii"))
    }

    @Test func sniffingFindsArchivesAmongPlists() throws {
        let archive = try PlistFixtures.bytes(PlistFixtures.packageRoot.appendingPathComponent("Examples/Products"))
        let plain = try PlistFixtures.encode(.array([.string("x")]))
        #expect(ArchiveCodec().sniff(Array(archive.prefix(4096))) == .certain)
        #expect(ArchiveCodec().sniff(plain) == .no)
        #expect(PlistCodec().sniff(plain) == .likely)
        let xml = Array("<?xml version=\"1.0\"?>\n<plist><dict><key>$archiver</key>".utf8)
        #expect(ArchiveCodec().sniff(xml) == .certain)
    }
}
