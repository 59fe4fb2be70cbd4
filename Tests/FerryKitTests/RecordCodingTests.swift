import Foundation
import Testing

@testable import FerryKit

/// Records to and from the caller's own `Codable` types, through
/// `RecordDecoder` and `RecordEncoding`.
@Suite struct RecordCodingTests {
    typealias Product = SeedProduct
    typealias Book = SeedBook

    enum Shelf: String, Codable, Equatable {
        case fiction
        case reference
    }

    struct Size: Codable, Equatable {
        var width: Double
        var height: Double
    }

    struct Shipped: Codable, Equatable {
        var sku: Int64
        var shelf: Shelf
        var size: Size
        var tags: [String]
        var arrived: Date
        var page: URL
        var weight: Float
    }

    private func decode<T: Decodable>(_ type: T.Type, _ pairs: [(String, Value)]) throws(FerryError) -> T {
        try RecordDecoder.decode(type, from: Record(pairs), rules: DecodingRules())
    }

    private func failure<T: Decodable>(_ type: T.Type, _ pairs: [(String, Value)]) -> FerryError? {
        do {
            _ = try decode(type, pairs)
            return nil
        } catch {
            return error
        }
    }

    @Test func productDecodesWithItsPriceExact() throws {
        let product = try decode(
            Product.self, [("name", .string("Wireless Controller")), ("price", .double(19.99)), ("photo", .null)])
        #expect(product == Product(name: "Wireless Controller", price: Decimal(string: "19.99"), photo: nil))
        // The double's nearest decimal would be 19.989999…; the text is kept.
        #expect(product.price?.description == "19.99")
    }

    @Test func numberTextBecomesAnExactDecimal() throws {
        let product = try decode(Product.self, [("name", .string("Wii")), ("price", .number(NumberText(unchecked: "269.00")))])
        #expect(product.price == Decimal(269))
        #expect(product.photo == nil)
    }

    @Test func bookDecodesFromCSVText() throws {
        // A CSV without a kind hands out text; numbers and booleans in it count.
        let book = try decode(
            Book.self,
            [
                ("title", .string("Dune")), ("author", .string("Frank Herbert")), ("description", .string("")),
                ("pages", .string("412")), ("readThisBook", .string("true")), ("price", .string("9.99")),
                ("isbn", .string("")),
            ])
        #expect(book.pages == 412)
        #expect(book.readThisBook)
        #expect(book.price == Decimal(string: "9.99"))
        #expect(book.isbn == "")
    }

    @Test func photoBytesComeFromBytesOrADataURI() throws {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let fromBytes = try decode(Product.self, [("name", .string("Wii")), ("photo", .bytes(bytes))])
        #expect(fromBytes.photo == Data(bytes))
        let uri = Photo.dataURI(bytes)
        let fromURI = try decode(Product.self, [("name", .string("Wii")), ("photo", .string(uri))])
        #expect(fromURI.photo == Data(bytes))
    }

    @Test func photoNameResolvesThroughTheRules() throws {
        let rules = DecodingRules(photo: { (name: String) throws(FerryError) -> [UInt8] in
            guard name == "wii.jpg" else { throw .photoUnreadable(name, errno: 2, at: .unknown) }
            return [1, 2, 3]
        })
        let record = Record([("name", .string("Wii")), ("photo", .string("wii.jpg"))])
        #expect(try RecordDecoder.decode(Product.self, from: record, rules: rules).photo == Data([1, 2, 3]))
        // Without a way to resolve names, a name is not bytes.
        let error = failure(Product.self, [("name", .string("Wii")), ("photo", .string("wii.jpg"))])
        #expect(error?.code == .recordWrongType)
        #expect(error?.location.field == "photo")
    }

    @Test func nestedValuesEnumsDatesAndURLs() throws {
        let shipped = try decode(
            Shipped.self,
            [
                ("sku", .integer(9_000_000_000)), ("shelf", .string("reference")),
                ("size", .object(OrderedObject([("width", .integer(21)), ("height", .double(29.7))]))),
                ("tags", .array([.string("a"), .string("b")])), ("arrived", .string("2017-10-07T12:30:00+02:00")),
                ("page", .string("https://example.com/p/1")), ("weight", .double(0.35)),
            ])
        #expect(shipped.sku == 9_000_000_000)
        #expect(shipped.shelf == .reference)
        #expect(shipped.size == Size(width: 21, height: 29.7))
        #expect(shipped.tags == ["a", "b"])
        #expect(shipped.arrived == Date(timeIntervalSince1970: 1_507_372_200))
        #expect(shipped.page.host == "example.com")
        #expect(shipped.weight == 0.35)
    }

    @Test func missingAndNullRequiredFieldsAreMissing() {
        for pairs: [(String, Value)] in [[("price", .integer(1))], [("name", .null), ("price", .integer(1))]] {
            let error = failure(Product.self, pairs)
            #expect(error?.code == .recordMissingField)
            #expect(error?.arguments == [.string("name")])
            #expect(error?.location.field == "name")
        }
    }

    @Test func wrongTypesNameTheFieldPath() {
        let error = failure(
            Shipped.self,
            [
                ("sku", .integer(1)), ("shelf", .string("fiction")),
                ("size", .object(OrderedObject([("width", .bool(true)), ("height", .integer(1))]))),
                ("tags", .array([])), ("arrived", .string("2017-10-07")), ("page", .string("x")),
                ("weight", .integer(1)),
            ])
        #expect(error?.code == .recordWrongType)
        #expect(error?.arguments.first == .string("size.width"))
        // The reader locates the record's own field.
        #expect(error?.location.field == "size")

        let element = failure(
            Shipped.self,
            [
                ("sku", .integer(1)), ("shelf", .string("fiction")),
                ("size", .object(OrderedObject([("width", .integer(1)), ("height", .integer(1))]))),
                ("tags", .array([.string("a"), .bool(true)])), ("arrived", .string("2017-10-07")),
                ("page", .string("x")), ("weight", .integer(1)),
            ])
        #expect(element?.arguments.first == .string("tags[1]"))
    }

    @Test(arguments: [
        ("price", Value.string("12abc")), ("price", .string("")), ("price", .bool(true)),
    ])
    func pricesThatAreNotDecimals(field: String, value: Value) {
        let error = failure(Product.self, [("name", .string("Wii")), (field, value)])
        #expect(error?.code == (value == .bool(true) ? .recordWrongType : .decodeInvalidValue))
        #expect(error?.location.field == "price")
    }

    @Test func integersOutOfRangeAreInvalid() {
        struct Small: Decodable { var count: Int8 }
        let error = failure(Small.self, [("count", .integer(300))])
        #expect(error?.code == .decodeInvalidValue)
        #expect(error?.arguments == [.string("count"), .string("300"), .string("Int8")])
        #expect(failure(Small.self, [("count", .double(1.5))])?.code == .decodeInvalidValue)
        #expect(failure(Small.self, [("count", .string("x"))])?.code == .recordWrongType)
    }

    @Test func aTypesOwnErrorIsLocated() {
        struct Checked: Decodable {
            enum CodingKeys: String, CodingKey { case name }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let name = try container.decode(String.self, forKey: .name)
                guard !name.isEmpty else {
                    throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "empty name")
                }
            }
        }
        let error = failure(Checked.self, [("name", .string(""))])
        #expect(error?.code == .decodeFailed)
        #expect(error?.arguments == [.string("name"), .string("empty name")])
        #expect(error?.location.field == "name")
    }

    @Test func productsRoundTripWithStableFields() throws {
        var encoding = RecordEncoding()
        let products = [
            Product(name: "Xbox 360", price: Decimal(string: "299.00"), photo: Data([0xFF, 0xD8])),
            Product(name: "Wii", price: Decimal(269), photo: nil),
            Product(name: "Wireless Controller", price: Decimal(string: "19.99"), photo: nil),
        ]
        let records = try products.map { (product) throws(FerryError) in try encoding.record(product) }
        #expect(records.map(\.fields.names) == Array(repeating: ["name", "price", "photo"], count: 3))
        // One field list for the whole run, as readers share theirs.
        #expect(records[0].fields === records[2].fields)
        #expect(records[1]["photo"] == .null)
        #expect(records[2]["price"] == .double(19.99))
        #expect(records[0]["price"] == .integer(299))
        let back = try records.map { (record) throws(FerryError) in
            try RecordDecoder.decode(Product.self, from: record, rules: DecodingRules())
        }
        #expect(back == products)
    }

    @Test func nestedValuesRoundTrip() throws {
        var encoding = RecordEncoding()
        let value = Shipped(
            sku: 7, shelf: .fiction, size: Size(width: 1.5, height: 2), tags: ["x"],
            arrived: Date(timeIntervalSince1970: 0), page: URL(string: "https://example.com")!, weight: 19.99)
        let record = try encoding.record(value)
        #expect(record["weight"] == .double(19.99))
        #expect(record["shelf"] == .string("fiction"))
        #expect(try RecordDecoder.decode(Shipped.self, from: record, rules: DecodingRules()) == value)
    }

    @Test func onlyKeyedTypesAreRecords() {
        var encoding = RecordEncoding()
        #expect(throws: FerryError.encodeNotARecord("Int")) { try encoding.record(3) }
        #expect(throws: FerryError.encodeNotARecord("Array<String>")) { try encoding.record(["a"]) }
    }

    @Test(arguments: [
        ("19.99", "19.99"), ("-0.5", "-0.5"), ("+7", "7"), ("00012.3400", "12.34"), ("1e2", "100"), ("1.5E-3", "0.0015"),
        ("12345678901234567890123", "12345678901234567890123"), ("0.000", "0"),
        // Past 19 significant digits: a fraction's are kept, zeros after them change nothing.
        ("0.1234567890123456789012345", "0.1234567890123456789012345"), ("1.50000000000000000000000", "1.5"),
        ("-0.000000000000000000000000123", "-0.000000000000000000000000123"),
    ])
    func decimalsFromText(text: String, expected: String) {
        #expect(ValueScalars.decimal(text: text) == Decimal(string: expected))
    }

    @Test(arguments: [19.99, 0.1, -269.5, 299, 0, 1e-7, 123456.789])
    func decimalsFromDoublesAreTheirShortestText(number: Double) {
        #expect(ValueScalars.decimal(scaling: number) == Decimal(string: "\(number)"))
    }

    /// Past 15 fraction digits or 2⁵³, scaling gives up, and the shortest
    /// text decides (`Value`'s `.double` case of `decimal`).
    @Test(arguments: [0.30000000000000004, 1e300, Double.leastNonzeroMagnitude])
    func doublesScalingCannotHold(number: Double) {
        #expect(ValueScalars.decimal(scaling: number) == nil)
    }

    @Test(arguments: ["", "-", ".", "1.2.3", "1e", "12abc", "e5"])
    func notDecimals(text: String) {
        #expect(ValueScalars.decimal(text: text) == nil)
    }

    @Test func fieldsInAnotherOrderFromRecordToRecord() throws {
        let rules = DecodingRules()
        let first = Record([("name", .string("Wii")), ("price", .integer(269)), ("photo", .null)])
        let second = Record([("photo", .null), ("price", .integer(19)), ("name", .string("Pad"))])
        let third = Record([("name", .string("Cable"))])
        #expect(try RecordDecoder.decode(Product.self, from: first, rules: rules).name == "Wii")
        #expect(try RecordDecoder.decode(Product.self, from: second, rules: rules) == Product(name: "Pad", price: 19))
        #expect(try RecordDecoder.decode(Product.self, from: third, rules: rules) == Product(name: "Cable"))
        #expect(try RecordDecoder.decode(Product.self, from: first, rules: rules).price == 269)
    }

    @Test(arguments: [
        ("2017-10-07", 1_507_334_400.0), ("2017-10-07T12:30:00Z", 1_507_379_400),
        ("2017-10-07t12:30:00.250z", 1_507_379_400.25), ("2017-10-07 12:30-0530", 1_507_399_200),
        ("2000-02-29T00:00:00Z", 951_782_400), ("1969-12-31T23:59:59Z", -1),
    ])
    func iso8601Dates(text: String, seconds: Double) {
        #expect(Timestamp.date(iso8601: text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: [
        "2023-02-29", "2017-13-01", "2017-10-07T24:00:00Z", "2017-10-07T12:30:00", "2017-10-07T12:30:00Zx",
        "17-10-07", "2017-10-07T12:30:00.Z", "",
    ])
    func notISO8601Dates(text: String) {
        #expect(Timestamp.date(iso8601: text) == nil)
    }
}
