import Testing

@testable import FerryKit

/// Record equality as merge sees it: numbers by value, missing as null,
/// empty as null where typed, text by canonical equivalence, keys as key
/// text; records of CSV, JSON and an archive alike.
@Suite struct RecordEqualityTests {
    let products = RecordEquality(kind: .product)

    static func number(_ text: String) -> Value { .number(NumberText(unchecked: text)) }

    // MARK: - Numbers

    @Test(arguments: [
        (Value.integer(269), Value.double(269.0)),
        (.integer(269), number("2.69E2")),
        (.double(269.0), number("269.00")),
        (number("1.10"), number("1.1")),
        (.double(0.1), number("0.10")),
        (.double(-0.0), .integer(0)),
        (number("123456789012345678901234567890"), number("1.2345678901234567890123456789E29")),
        (.integer(9_007_199_254_740_993), number("9007199254740993.0")),
    ])
    func numbersEqualByValue(_ first: Value, _ second: Value) {
        #expect(products.equal(first, second, field: "price"))
        #expect(products.equal(second, first, field: "price"))
        #expect(products.equal(first, second, field: "stock"))
    }

    @Test(arguments: [
        (Value.integer(269), Value.double(269.5)),
        (.integer(269), number("269.0000000000000000001")),
        (.double(0.1), number("0.1000000000000000055511151231257827")),
        (number("123456789012345678901234567890"), number("123456789012345678901234567891")),
        // 2^53 + 1 is no double: the double nearest it is 2^53.
        (.integer(9_007_199_254_740_993), .double(9_007_199_254_740_992)),
        (.integer(1), .bool(true)),
    ])
    func differentNumbersDiffer(_ first: Value, _ second: Value) {
        #expect(!products.equal(first, second, field: "price"))
        #expect(!products.equal(second, first, field: "price"))
    }

    // MARK: - Null, missing and empty

    @Test func aMissingFieldEqualsNull() {
        #expect(products.equal(nil, .null, field: "price"))
        #expect(products.equal(nil, .null, field: "notes"))
        #expect(!products.equal(nil, .integer(0), field: "price"))
        #expect(products.equal(Record([("name", .string("Wii")), ("notes", .null)]), Record([("name", .string("Wii"))])))
    }

    @Test func emptyIsNullOnlyInTypedFields() {
        // name, price, photo and sku are the product's typed fields.
        for field in ["name", "sku", "photo", "price"] {
            #expect(products.equal(.string(""), .null, field: field))
            #expect(products.equal(.string(""), nil, field: field))
        }
        // notes is typed by no schema: "" is a value there.
        #expect(!products.equal(.string(""), .null, field: "notes"))
        #expect(!products.equal(.string(""), nil, field: "notes"))
        #expect(products.equal(.string(""), .string(""), field: "notes"))
        // Only empty: white space is a value outside keys.
        #expect(!products.equal(.string(" "), .null, field: "sku"))
    }

    /// What the CSV reader gives for empty cells, which the rule above is about.
    @Test func theCSVReaderGivesNullForEmptyTypedCells() throws {
        let records = try readRecords("name,price,sku,photo,notes\nWii,,,,\nPS5,,\"\",\"\",\"\"\n", codec: CSVCodec.csv)
        #expect(records[0].values == [.string("Wii"), .null, .null, .null, .string("")])
        // Quoted empty cells of optional strings stay "".
        #expect(records[1].values == [.string("PS5"), .null, .string(""), .string(""), .string("")])
        #expect(products.equal(records[0], records[0]))
        #expect(products.differences(records[0], records[1]).map(\.field) == ["name"])
    }

    // MARK: - Text

    @Test func textEqualsWhenCanonicallyEquivalent() {
        #expect(products.equal(.string("Cre\u{0300}me"), .string("Crème"), field: "name"))
        #expect(products.equal(.string("Cre\u{0300}me"), .string("Crème"), field: "notes"))
        #expect(!products.equal(.string("Crème"), .string("Creme"), field: "name"))
        #expect(!products.equal(.string("Wii"), .string("wii"), field: "name"))
        // Outside keys, white space is part of the text.
        #expect(!products.equal(.string(" Wii"), .string("Wii"), field: "name"))
    }

    @Test func keyFieldsCompareAsKeyText() {
        let keyed = RecordEquality(kind: .product, keyFields: ["sku"])
        #expect(keyed.equal(.string(" A-1\u{A0}"), .string("A-1"), field: "sku"))
        #expect(keyed.equal(.string("Cre\u{0300}me "), .string("Crème"), field: "sku"))
        #expect(keyed.equal(.string("269"), .integer(269), field: "sku"))
        #expect(keyed.equal(.string("  "), nil, field: "sku"))
        #expect(!keyed.equal(.string("A-1"), .string("A-2"), field: "sku"))
        #expect(!products.equal(.string(" A-1"), .string("A-1"), field: "sku"))
    }

    @Test func untypedTextEqualsTheNumberItSpells() {
        // CSV has only text in a field no schema types; JSON has numbers.
        #expect(products.equal(.string("5"), .integer(5), field: "stock"))
        #expect(products.equal(.string("2.50"), .double(2.5), field: "stock"))
        #expect(products.equal(.string("true"), .bool(true), field: "stock"))
        #expect(!products.equal(.string("five"), .integer(5), field: "stock"))
        #expect(!products.equal(.string("5"), .integer(6), field: "stock"))
        // In a typed field, text is no number.
        #expect(!products.equal(.string("5"), .integer(5), field: "price"))
    }

    // MARK: - Records of every format

    @Test func theSameProductFromCSVJSONAndAnArchive() throws {
        let csv = try readRecords("name,price,sku,stock\nWii,269,A-1,7\n", codec: CSVCodec.csv)[0]
        let json = try readRecords(#"[{"sku":"A-1","name":"Wii","price":2.69E2,"stock":7}]"#, codec: JSONCodec())[0]
        let archive = Record([
            ("name", .string("Wii")), ("price", .double(269.0)), ("sku", .string("A-1")), ("stock", .integer(7)),
        ])
        #expect(csv.values[1] == .integer(269))
        // A column no kind names is inferred: every cell of it is an integer.
        #expect(csv.values[3] == .integer(7))
        for (first, second) in [(csv, json), (json, archive), (archive, csv)] {
            #expect(products.equal(first, second))
            #expect(products.equal(second, first))
            #expect(products.differences(first, second).isEmpty)
        }
    }

    @Test func differencesNameEachFieldWithBothValues() throws {
        let csv = try readRecords("name,price,sku,notes\nWii,269,A-1,\n", codec: CSVCodec.csv)[0]
        let json = try readRecords(#"[{"name":"Wii","price":249.0,"sku":"A-1","photo":"wii.png"}]"#, codec: JSONCodec())[0]
        let differences = products.differences(csv, json)
        #expect(
            differences == [
                FieldDifference(field: "price", first: .integer(269), second: .double(249)),
                FieldDifference(field: "notes", first: .string(""), second: nil),
                FieldDifference(field: "photo", first: nil, second: .string("wii.png")),
            ])
        #expect(!products.equal(csv, json))
    }

    @Test func rawRecordsCompareInPlace() throws {
        let json = try readRecords(
            #"[{"name":"Crème","price":269.0,"sku":"A-1"},{"name":"PS5","price":499,"sku":"A-2"}]"#, codec: JSONCodec())
        let bytes = Array("name,price,sku\nCre\u{0300}me,2.69E2,A-1\nPS5,449,A-2\n".utf8)
        let reader = try #require(
            try CSVCodec.csv.makeReader(MemoryInput(bytes, name: "p.csv"), context: ReadContext(kind: .product))
                as? any RawRecordReader)
        var outcomes: [(Bool, [String])] = []
        while try reader.readRaw({ raw in
            RawRecord.with(json[outcomes.count]) { other in
                outcomes.append((products.equal(raw, other), products.differences(raw, other).map(\.field)))
            }
        }) {}
        #expect(outcomes.map(\.0) == [true, false])
        #expect(outcomes.map(\.1) == [[], ["price"]])
    }

    @Test func nestedAndBinaryValuesCompareAsValues() {
        #expect(products.equal(.bytes([1, 2]), .bytes([1, 2]), field: "photo"))
        #expect(!products.equal(.bytes([1, 2]), .bytes([1, 3]), field: "photo"))
        #expect(products.equal(.array([.integer(1)]), .array([.double(1)]), field: "tags"))
        #expect(!products.equal(.array([.integer(1)]), .array([.integer(2)]), field: "tags"))
        #expect(!products.equal(.array([.integer(1)]), .string("[1]"), field: "tags"))
        let first = Value.object(OrderedObject([("w", .integer(3)), ("h", .null)]))
        let second = Value.object(OrderedObject([("w", .number(NumberText(unchecked: "3.0")))]))
        #expect(products.equal(first, second, field: "size"))
        #expect(!products.equal(first, .object(OrderedObject([("w", .integer(4))])), field: "size"))
    }
}

/// `RecordEquality.digest`: records it gives one digest are equal, so a
/// merge may take equal digests for identical records without comparing.
@Suite struct RecordDigestTests {
    let products = RecordEquality(kind: .product, keyFields: ["sku"])

    func digest(_ pairs: [(String, Value)]) -> UInt64? {
        RawRecord.with(Record(pairs)) { products.digest(of: $0) }
    }

    static func number(_ text: String) -> Value { .number(NumberText(unchecked: text)) }

    @Test func oneNumberInEachSpellingHasOneDigest() {
        let spellings: [Value] = [.integer(269), .double(269), Self.number("269"), .double(-0.0 + 269)]
        let digests = Set(spellings.map { digest([("name", .string("Wii")), ("price", $0)]) })
        #expect(digests.count == 1 && digests.first! != nil)
        #expect(digest([("price", .double(-0.0))]) == digest([("price", .integer(0))]))
    }

    @Test func fieldOrderNullsAndTheKeyDoNotCount() {
        let base = digest([("sku", .string("A")), ("name", .string("Wii")), ("price", .double(19.99))])
        #expect(digest([("price", .double(19.99)), ("name", .string("Wii")), ("sku", .string("B"))]) == base)
        #expect(digest([("name", .string("Wii")), ("price", .double(19.99)), ("photo", .null)]) == base)
        // An empty text is null in a typed field, a value in an untyped one.
        #expect(digest([("name", .string("Wii")), ("price", .double(19.99)), ("photo", .string(""))]) == base)
        #expect(digest([("name", .string("Wii")), ("price", .double(19.99)), ("notes", .string(""))]) != base)
    }

    /// A raw record with more cells than names gets no digest (it is
    /// compared field by field), and no read past the digest's plan.
    @Test func moreCellsThanNamesHaveNoDigest() {
        let cells: [RawValue] = [.integer(1), .integer(2), .integer(3)]
        let fields = FieldList(["name", "price"])
        let digest = cells.withUnsafeBufferPointer { cells in
            products.digest(
                of: RawRecord(
                    fields: fields, values: cells, others: UnsafeBufferPointer(start: nil, count: 0),
                    origin: RecordOrigin(index: 0, byteOffset: 0)))
        }
        #expect(digest == nil)
        #expect(self.digest([("name", .string("Wii")), ("price", .integer(2))]) != nil)
    }

    @Test func undigestableValuesHaveNone() {
        #expect(digest([("price", .double(.nan))]) == nil)
        #expect(digest([("tags", .array([.string("a")]))]) == nil)
    }

    /// Random records over a small set of values, so that many pairs share
    /// digests: every pair with one digest is equal.
    @Test func equalDigestsAreEqualRecords() {
        var generator = SystemRandomNumberGenerator()
        let values: [Value] = [
            .null, .string(""), .string("269"), .string("Wii"), .string("Cre\u{300}me"), .string("Cr\u{E8}me"),
            .integer(269), .double(269), .double(2.5), Self.number("2.50"), Self.number("269"), Self.number("-0"),
            .integer(0), .bool(true), .string("true"), .bytes([1, 2]),
        ]
        let names = ["name", "price", "notes", "photo"]
        var records: [Record] = []
        for _ in 0..<3_000 {
            let fields = names.filter { _ in Bool.random(using: &generator) }
            records.append(Record(fields.map { ($0, values.randomElement(using: &generator)!) }))
        }
        var byDigest: [UInt64: [Record]] = [:]
        for record in records {
            if let digest = RawRecord.with(record, { products.digest(of: $0) }) { byDigest[digest, default: []].append(record) }
        }
        var pairs = 0
        for group in byDigest.values where group.count > 1 {
            for other in group.dropFirst() {
                #expect(products.equal(group[0], other))
                pairs += 1
            }
        }
        #expect(pairs > 100)
    }

    func exactDigest(_ pairs: [(String, Value)]) -> (digest: UInt64?, exact: Bool) {
        var exact = true
        let digest = RawRecord.with(Record(pairs)) { products.digest(of: $0, exact: &exact) }
        return (digest, exact)
    }

    /// A digest is exact only when each value is in the one form `equal`
    /// compares it in (`SpooledMerge` counts pairs of exact digests that
    /// differ as conflicts without reading them again).
    @Test func digestsOfValuesInOtherFormsAreNotExact() {
        #expect(exactDigest([("name", .string("Wii")), ("price", .double(2.5)), ("currency", .string("USD"))]).exact)
        #expect(exactDigest([("name", .string("Cr\u{E8}me")), ("photo", .null), ("price", .integer(3))]).exact)
        let inexact: [[(String, Value)]] = [
            [("name", .string("Cre\u{300}me"))],  // not in NFC
            [("notes", .string("269"))],  // untyped text that spells a number
            [("notes", .string("true"))],
            [("price", Self.number("2.50"))],  // a number kept as text
            [("price", .integer(1 << 60))],  // past 2^53
            [("price", .double(0x1p60))],
        ]
        for pairs in inexact { #expect(!exactDigest(pairs).exact, "\(pairs)") }
        #expect(exactDigest([("name", .string("269"))]).exact)  // typed: text is never a number
    }

    /// Random records: two whose exact digests differ are never equal.
    @Test func differentExactDigestsAreDifferentRecords() {
        var generator = SystemRandomNumberGenerator()
        let values: [Value] = [
            .null, .string(""), .string("269"), .string("Wii"), .string("Cre\u{300}me"), .string("Cr\u{E8}me"),
            .integer(269), .double(269), .double(2.5), Self.number("2.50"), Self.number("269"), .integer(0),
            .double(-0.0), .bool(true), .string("true"), .bytes([1, 2]), .integer(1 << 60), .double(0x1p60),
        ]
        let names = ["name", "price", "notes", "photo"]
        var records: [(Record, UInt64)] = []
        for _ in 0..<400 {
            let fields = names.filter { _ in Bool.random(using: &generator) }
            let record = Record(fields.map { ($0, values.randomElement(using: &generator)!) })
            let digest = exactDigest(record.fields.names.indices.map { (record.fields.names[$0], record.values[$0]) })
            if let value = digest.digest, digest.exact { records.append((record, value)) }
        }
        var pairs = 0
        for (index, (record, digest)) in records.enumerated() {
            for (other, otherDigest) in records[(index + 1)...] where otherDigest != digest {
                #expect(!products.equal(record, other))
                pairs += 1
            }
        }
        #expect(pairs > 1_000)
    }
}
