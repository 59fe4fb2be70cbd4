import Foundation
import Testing

@testable import FerryKit
@testable import FerryPlist

/// What becomes of archived class names: a record of a class of no kind
/// keeps its class (and `$classes` chain) through a round trip, and images
/// of module-qualified or mapped classes are photos.
@Suite struct ArchiveClassTests {
    /// An archive whose root array holds one instance of `className`
    /// (with the superclasses `chain`) of `fields`; `image` adds a `photo`
    /// field, an instance of `image` holding a PNG under `UIImageData`.
    static func archive(
        className: String, chain: [String], fields: [(String, PlistValue)], image: String? = nil
    ) throws(FerryError) -> [UInt8] {
        var objects: [PlistValue] = [.string("$null")]
        objects.append(.dictionary(PlistDictionary([("NS.objects", .array([.uid(2)])), ("$class", .uid(3))])))
        objects.append(.null)  // the instance, below
        objects.append(Self.classDescription("NSArray", chain: ["NSArray", "NSObject"]))
        objects.append(Self.classDescription(className, chain: chain))
        var pairs = fields
        if let image {
            objects.append(Self.classDescription(image, chain: [image, "NSObject"]))
            objects.append(.data(png))
            objects.append(.dictionary(PlistDictionary([
                ("UIImageData", .uid(UInt64(objects.count - 1))), ("UIScale", .real(2)), ("$class", .uid(UInt64(objects.count - 2))),
            ])))
            pairs.append(("photo", .uid(UInt64(objects.count - 1))))
        }
        pairs.append(("$class", .uid(4)))
        objects[2] = .dictionary(PlistDictionary(pairs))
        return try PlistFixtures.encode(.dictionary(PlistDictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ])))
    }

    static func classDescription(_ name: String, chain: [String]) -> PlistValue {
        .dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array(chain.map { .string($0) }))]))
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    /// The class descriptions of an archive Ferry wrote, by name.
    static func classChains(_ archive: [UInt8]) throws(FerryError) -> [String: [String]] {
        guard case .dictionary(let top) = try PlistFixtures.decode(archive), case .array(let objects)? = top["$objects"]
        else { return [:] }
        var chains: [String: [String]] = [:]
        for case .dictionary(let object) in objects {
            guard case .string(let name)? = object["$classname"], case .array(let names)? = object["$classes"] else { continue }
            chains[name] = names.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }
        return chains
    }

    /// The keys of every instance but the root array: no instance may name
    /// a key twice.
    static func instanceKeys(_ archive: [UInt8]) throws(FerryError) -> [[String]] {
        guard case .dictionary(let top) = try PlistFixtures.decode(archive), case .array(let objects)? = top["$objects"]
        else { return [] }
        return objects.compactMap { object in
            guard case .dictionary(let dictionary) = object, dictionary["$class"] != nil, dictionary["NS.objects"] == nil
            else { return nil }
            return dictionary.keys
        }
    }

    // MARK: - Classes of no kind

    /// `MyApp.Widget` has a name and a price, so a conversion takes it for
    /// a product; written back it is still a `MyApp.Widget` with its
    /// superclasses, with one `$class` key, and reads back as it was.
    @Test(arguments: [RecordKind.product, .generic])
    func aClassOfNoKindRoundTrips(kind: RecordKind) throws {
        let chain = ["MyApp.Widget", "MyApp.Base", "NSObject"]
        let archive = try Self.archive(
            className: "MyApp.Widget", chain: chain, fields: [("name", .string("Gizmo")), ("price", .real(9.5))])
        let read = PlistFixtures.read(archive, codec: ArchiveCodec())
        #expect(read.error == nil)
        let record = try #require(read.records.first)
        #expect(record.pairs.map(\.0) == ["$class", "$classes", "name", "price"])
        #expect(record["$class"] == .string("MyApp.Widget"))
        #expect(record["$classes"] == .array(chain.map { .string($0) }))

        let written = try PlistFixtures.write(read.records, codec: ArchiveCodec(), kind: kind)
        #expect(try Self.instanceKeys(written).allSatisfy { Set($0).count == $0.count })
        #expect(try Self.classChains(written)["MyApp.Widget"] == chain)
        let back = PlistFixtures.read(written, codec: ArchiveCodec())
        #expect(back.error == nil)
        #expect(back.records == read.records)
    }

    /// A class whose superclass is NSObject alone has no `$classes` field:
    /// that chain is the one Ferry writes when none is given.
    @Test func theUsualChainIsLeftOut() throws {
        let archive = try Self.archive(
            className: "MyApp.Widget", chain: ["MyApp.Widget", "NSObject"], fields: [("name", .string("Gizmo"))])
        let read = PlistFixtures.read(archive, codec: ArchiveCodec())
        #expect(read.records.first?.pairs.map(\.0) == ["$class", "name"])
        let written = try PlistFixtures.write(read.records, codec: ArchiveCodec(), kind: .generic)
        #expect(try Self.classChains(written)["MyApp.Widget"] == ["MyApp.Widget", "NSObject"])
    }

    /// Keys an app archived starting with `$` are escaped with another `$`,
    /// as NSKeyedArchiver does; Ferry reads them unescaped and escapes them
    /// again, so no field can pass for `$class`.
    @Test func dollarKeysAreEscaped() throws {
        let archive = try Self.archive(
            className: "MyApp.Widget", chain: ["MyApp.Widget", "NSObject"],
            fields: [("$$note", .string("kept")), ("$$class", .string("not the class"))])
        let read = PlistFixtures.read(archive, codec: ArchiveCodec())
        #expect(read.error == nil)
        #expect(read.records.first?.pairs.map(\.0) == ["$class", "$note", "$$class"])
        let written = try PlistFixtures.write(read.records, codec: ArchiveCodec(), kind: .generic)
        #expect(try Self.instanceKeys(written).first.map(Set.init) == ["$$note", "$$$class", "$class"])
        #expect(PlistFixtures.read(written, codec: ArchiveCodec()).records == read.records)
    }

    /// `--class-name` names the class of every record, over their own.
    @Test func classNameOptionWinsOverTheRecordsClass() throws {
        let record = Record([("$class", .string("MyApp.Widget")), ("name", .string("Gizmo")), ("price", .double(1))])
        let written = try PlistFixtures.write([record], codec: ArchiveCodec(), kind: .product, options: ["class-name": "Shop.Item"])
        #expect(try Self.classChains(written).keys.contains("MyApp.Widget") == false)
        #expect(PlistFixtures.read(written, codec: ArchiveCodec()).records.first?["$class"] == .string("Shop.Item"))
    }

    /// A `$class` that is no text, or `$classes` that is no list of text,
    /// cannot name a class: the record is refused, with the field.
    @Test(arguments: [
        ("$class", Value.integer(5), "string"),
        ("$classes", Value.string("MyApp.Widget"), "array"),
        ("$classes", Value.array([.integer(1)]), "array"),
    ])
    func classFieldsOfTheWrongTypeAreRefused(field: String, value: Value, expected: String) throws {
        var pairs: [(String, Value)] = [("name", .string("Gizmo"))]
        if field == "$classes" { pairs.append(("$class", .string("MyApp.Widget"))) }
        pairs.append((field, value))
        #expect {
            _ = try PlistFixtures.write([Record(pairs)], codec: ArchiveCodec(), kind: .generic)
        } throws: { error in
            guard let error = error as? FerryError else { return false }
            return error.code == .archiveClassFieldWrongType
                && error.arguments == [.string(field), .message(expected == "string" ? .typeString : .typeArray)]
                && error.location.record == 0
        }
    }

    // MARK: - Images

    /// Swift's NSKeyedArchiver names a Swift class UIImage with its module;
    /// a class mapped to `image` is one too. Their data is the photo, in
    /// both reading paths.
    @Test(arguments: [
        ("GameStoreiOS.UIImage", [String: String]()),
        ("UIImage", [:]),
        ("MyApp.Picture", ["class-map": "MyApp.Picture=image"]),
        ("MyApp.Picture", ["class-map": "GameStoreiOS.Product=product,MyApp.Picture=image"]),
    ])
    func imageClassesArePhotos(image: String, options: [String: String]) throws {
        let archive = try Self.archive(
            className: "GameStoreiOS.Product", chain: ["GameStoreiOS.Product", "NSObject"],
            fields: [("name", .string("Wii")), ("price", .real(269))], image: image)
        let read = PlistFixtures.read(archive, codec: ArchiveCodec(), options: options)
        #expect(read.error == nil)
        #expect(read.records.first?["photo"] == .bytes(Self.png))
        #expect(read.records.first?["$class"] == nil)
        #expect(try Self.rawRecords(archive, options: options) == read.records.map(\.values))
    }

    /// Without a map, a class that only resembles UIImage is an object of
    /// its fields; a class mapped to a kind of record is no image.
    @Test(arguments: [
        ("MyApp.Picture", [String: String]()),
        ("UIImageView", [:]),
        ("MyApp.UIImage", ["class-map": "MyApp.UIImage=product"]),
    ])
    func otherClassesAreNoPhotos(image: String, options: [String: String]) throws {
        let archive = try Self.archive(
            className: "GameStoreiOS.Product", chain: ["GameStoreiOS.Product", "NSObject"],
            fields: [("name", .string("Wii"))], image: image)
        let read = PlistFixtures.read(archive, codec: ArchiveCodec(), options: options)
        #expect(read.error == nil)
        guard case .object(let photo)? = read.records.first?["photo"] else {
            Issue.record("the photo is \(String(describing: read.records.first?["photo"]))")
            return
        }
        #expect(photo["UIImageData"] == .bytes(Self.png))
    }

    @Test func classMapParsesImages() throws {
        let map = try ClassMap(parsing: "Pic=image,Item=product,Item2=image,Item2=book")
        #expect(map.isImage("Pic"))
        #expect(map.kind(of: "Pic") == nil)
        #expect(map.kind(of: "Item") == .product)
        #expect(!map.isImage("Item2"))
        #expect(map.kind(of: "Item2") == .book)
        #expect(ClassMap().isImage("UIImage"))
        #expect(ClassMap().isImage("GameStoreiOS.UIImage"))
        #expect(!ClassMap().isImage("UIImageView"))
        #expect(!ClassMap().isImage("GameStoreiOS.Product"))
        #expect {
            try ClassMap(parsing: "Pic=picture")
        } throws: { error in
            (error as? FerryError)?.code == .usageInvalidValue
                && (error as? FerryError)?.arguments.contains(.message(.expectedClassMap)) == true
        }
    }

    /// The values of every record the raw path reads.
    static func rawRecords(_ bytes: [UInt8], options: [String: String]) throws -> [[Value]] {
        let context = ReadContext(options: OptionValues(options))
        let reader = try #require(try ArchiveCodec().makeReader(MemoryInput(bytes, name: "test"), context: context) as? RawRecordReader)
        var records: [[Value]] = []
        while try reader.readRaw({ record in records.append(record.values.indices.map { record.value(at: $0) }) }) {}
        return records
    }
}
