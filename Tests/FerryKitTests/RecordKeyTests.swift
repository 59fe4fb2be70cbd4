import FerryTestSupport
import Testing

@testable import FerryKit

/// Key text (trimmed, NFC, numbers by value), the digests keys are matched
/// by, and the default key of each kind.
@Suite struct RecordKeyTests {
    // MARK: - Key text

    @Test(arguments: [
        ("Cre\u{0300}me", "Crème"),
        ("Crème", "Crème"),
        ("  A-1\t", "A-1"),
        ("\r\nA-1\n", "A-1"),
        ("\u{A0}A-1\u{3000}", "A-1"),
        ("\u{2000}A-1\u{2001}", "A-1"),
        ("A 1", "A 1"),
        ("A\u{A0}1", "A\u{A0}1"),
        ("   ", ""),
        ("", ""),
        ("Łódź", "Łódź"),
        ("\u{03B1}\u{0301}", "\u{03AC}"),
        ("\u{1100}\u{1161}", "\u{AC00}"),
        (" e\u{0301} ", "é"),
        ("日本", "日本"),
    ])
    func keyTextIsTrimmedAndComposed(_ text: String, _ expected: String) {
        let normalized = KeyText.normalized(text)
        #expect(Array(normalized.utf8) == Array(expected.utf8))
    }

    @Test func onlyTextBelowU0300IsKnownNFC() {
        func known(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer(KeyText.isKnownNFC)
        }
        #expect(known("SKU-000123-GAME-CONSOLE"))
        #expect(known("Crème brûlée, Straße, Łódź"))
        #expect(known("\u{02FF}"))
        #expect(!known("Cre\u{0300}me"))
        #expect(!known("\u{0300}"))
        #expect(!known("日本"))
    }

    @Test(arguments: [
        (Value.integer(269), "269"),
        (.double(269.0), "269"),
        (.number(NumberText(unchecked: "2.69E2")), "269"),
        (.number(NumberText(unchecked: "269.0")), "269"),
        (.number(NumberText(unchecked: "+0269")), "269"),
        (.string("269"), "269"),
        (.double(0.1), "0.1"),
        (.number(NumberText(unchecked: "0.10")), "0.1"),
        (.double(-0.0), "0"),
        (.integer(-42), "-42"),
        (.integer(.min), "-9223372036854775808"),
        (.double(1e30), "1e+30"),
        (.number(NumberText(unchecked: "1E30")), "1e+30"),
        (.number(NumberText(unchecked: "123456789012345678901234567890")), "1.2345678901234567890123456789e+29"),
        (.number(NumberText(unchecked: "100000000000000000000")), "100000000000000000000"),
        (.number(NumberText(unchecked: "0.000001")), "0.000001"),
        (.number(NumberText(unchecked: "0.0000001")), "1e-7"),
        (.number(NumberText(unchecked: "-2.50")), "-2.5"),
        (.bool(true), "true"),
    ])
    func numbersHaveTheKeyTextOfTheirValue(_ value: Value, _ expected: String) {
        var text: [UInt8] = []
        #expect(KeyText.append(value, to: &text))
        #expect(String(decoding: text, as: UTF8.self) == expected)
    }

    @Test func valuesThatAreNoKeyHaveNoKeyText() {
        var text: [UInt8] = []
        #expect(!KeyText.append(.null, to: &text))
        #expect(!KeyText.append(.bytes([1, 2]), to: &text))
        #expect(!KeyText.append(.array([.integer(1)]), to: &text))
        #expect(!KeyText.append(.double(.infinity), to: &text))
        #expect(text.isEmpty)
    }

    // MARK: - Keys and digests

    @Test func oneFieldsDigestIsThatOfItsKeyText() throws {
        let keys = KeyFields(["sku"], kind: .product)
        let record = Record([("name", .string("Wii")), ("sku", .string(" Cre\u{0300}me-1 "))])
        let key = try #require(keys.key(of: record))
        #expect(key.parts == ["Crème-1"])
        #expect(key.digest == KeyDigest("Crème-1"))
        #expect(key.digest == Array("Crème-1".utf8).withUnsafeBytes { KeyDigest($0) })
        #expect(keys.digest(of: record) == key.digest)
    }

    @Test func theSameKeyFromEveryFormat() throws {
        let keys = KeyFields(["sku"], kind: .product)
        let csv = try readRecords("name,sku\nWii, A-1 \n", codec: CSVCodec.csv)
        let json = try readRecords(#"[{"name":"Wii","sku":"A-1"}]"#, codec: JSONCodec())
        let archive = Record([("name", .string("Wii")), ("sku", .string("A-1\u{A0}"))])
        let digests = [csv[0], json[0], archive].map(keys.digest(of:))
        #expect(digests[0] != nil)
        #expect(Set(digests).count == 1)
    }

    /// Raw records whose field lists alternate (a reader keeps each list it
    /// has seen): the key's place, the value digest's plan and the rules'
    /// places, each found again by the list's address, follow every
    /// record's own list.
    @Test func alternatingFieldListsAreFollowed() throws {
        let text = """
            {"sku":"A","name":"Wii","price":269}
            {"price":19.99,"name":"Pad","sku":"B"}
            {"sku":"C","name":"","price":269}
            {"price":-1,"name":"Wii","sku":"D"}
            {"sku":"E","name":"Wii","price":269.0}

            """
        let keys = KeyFields(["sku"], kind: .product)
        let equality = RecordEquality(kind: .product, keyFields: ["sku"])
        var validator = RecordValidator(schema: RecordKind.product.schema)
        let reader = try #require(
            try JSONLinesCodec().makeReader(MemoryInput(text, name: "k.jsonl"), context: ReadContext(kind: .product))
                as? any RawRecordReader)
        var addresses: [UnsafeRawPointer] = []
        var failures: [Bool] = []
        var values: [UInt64?] = []
        while try reader.readRaw({ raw in
            addresses.append(raw.fieldsAddress)
            let whole = raw.record()
            #expect(keys.digest(of: raw) == keys.digest(of: whole))
            values.append(equality.digest(of: raw))
            #expect(values.last == RawRecord.with(whole) { equality.digest(of: $0) })
            failures.append((try? validator.validate(raw)) == nil)
        }) {}
        // Two lists, taking turns.
        #expect(addresses.count == 5 && Set(addresses).count == 2 && addresses[0] != addresses[1])
        #expect(addresses[0] == addresses[2] && addresses[1] == addresses[3])
        // An empty name and a negative price break the product's rules.
        #expect(failures == [false, false, true, true, false])
        // The key is not in the digest: A and E hold the same values.
        #expect(values[0] != nil && values[0] == values[4] && values[0] != values[1])
    }

    /// Text cells of raw records are digested where they lie: the same
    /// digests as the records' values give.
    @Test func rawCellsDigestAsTheirValues() throws {
        let keys = KeyFields(["sku"], kind: .product)
        let bytes = Array("name,sku\nA, A-1\nB,A-1\nC,Crème\nD,Cre\u{0300}me\nE,\nF,\"\"\nG,\" \"\n".utf8)
        let reader = try #require(
            try CSVCodec.csv.makeReader(MemoryInput(bytes, name: "k.csv"), context: ReadContext(kind: .product))
                as? any RawRecordReader)
        var digests: [KeyDigest?] = []
        while try reader.readRaw({ raw in
            let digest = keys.digest(of: raw)
            #expect(digest == keys.digest(of: raw.record()))
            #expect(digest == keys.key(of: raw)?.digest)
            digests.append(digest)
        }) {}
        #expect(digests.count == 7)
        #expect(digests[0] != nil && digests[0] == digests[1])
        #expect(digests[2] != nil && digests[2] == digests[3])
        #expect(digests[4...] == [nil, nil, nil])
    }

    @Test func numbersKeyByValue() {
        let keys = KeyFields(["id"], kind: .generic)
        let values: [Value] = [.integer(269), .double(269.0), .number(NumberText(unchecked: "2.69E2")), .string("269")]
        let digests = values.map { keys.digest(of: Record([("id", $0)])) }
        #expect(Set(digests).count == 1)
        #expect(keys.digest(of: Record([("id", .double(269.5))])) != digests[0])
        let long = ["123456789012345678901234567890", "123456789012345678901234567891"].map {
            keys.digest(of: Record([("id", .number(NumberText(unchecked: $0)))]))
        }
        #expect(long[0] != long[1])
    }

    @Test func aRecordWithNoKeyValueHasNoKey() {
        let keys = KeyFields(["sku"], kind: .product)
        #expect(keys.key(of: Record([("name", .string("Wii"))])) == nil)
        #expect(keys.key(of: Record([("sku", .null)])) == nil)
        // sku is typed: empty, or empty once trimmed, is no value.
        #expect(keys.key(of: Record([("sku", .string(""))])) == nil)
        #expect(keys.key(of: Record([("sku", .string(" \t"))])) == nil)
        // In a field no schema types, "" is a value.
        let untyped = KeyFields(["code"], kind: .product)
        #expect(untyped.key(of: Record([("code", .string(""))]))?.parts == [""])
    }

    @Test func severalFieldsKeyTogether() throws {
        let keys = KeyFields(["title", "author"], kind: .book)
        let dune = try #require(keys.key(of: Record([("title", .string("Dune")), ("author", .string(" Frank Herbert"))])))
        #expect(dune.parts == ["Dune", "Frank Herbert"])
        let again = keys.key(of: Record([("author", .string("Frank Herbert")), ("title", .string("Dune "))]))
        #expect(again?.digest == dune.digest)
        let anonymous = try #require(keys.key(of: Record([("title", .string("Dune"))])))
        #expect(anonymous.parts == ["Dune", nil])
        #expect(anonymous.digest != dune.digest)
        #expect(keys.key(of: Record([("title", .string("Dune")), ("author", .null)]))?.digest == anonymous.digest)
        // The parts stay apart: ("ab", "c") is not ("a", "bc").
        let split = ["ab", "a"].map { title in
            keys.digest(of: Record([("title", .string(title)), ("author", .string(title == "ab" ? "c" : "bc"))]))
        }
        #expect(split[0] != split[1])
        #expect(keys.key(of: Record([("pages", .integer(3))])) == nil)
    }

    // MARK: - Default key

    @Test func productsKeyBySkuWhenEveryRecordHasOne() {
        let withSku = [
            Record([("name", .string("Wii")), ("sku", .string("A-1"))]),
            Record([("name", .string("PS5")), ("sku", .string("A-2"))]),
        ]
        #expect(DefaultKey.fields(of: withSku, kind: .product) == ["sku"])
        for lacking: Value? in [nil, .null, .string(""), .string("  ")] {
            var records = withSku
            var pairs: [(String, Value)] = [("name", .string("Switch"))]
            if let lacking { pairs.append(("sku", lacking)) }
            records.append(Record(pairs))
            #expect(DefaultKey.fields(of: records, kind: .product) == ["name"])
        }
        #expect(DefaultKey.fields(of: [Record](), kind: .product) == ["sku"])
    }

    @Test func booksKeyByIsbnElseTitleAndAuthor() {
        let books = [
            Record([("title", .string("Dune")), ("isbn", .string("978-0-441-17271-9"))]),
            Record([("title", .string("Emma")), ("author", .string("Jane Austen"))]),
        ]
        #expect(DefaultKey.fields(of: books.prefix(1), kind: .book) == ["isbn"])
        #expect(DefaultKey.fields(of: books, kind: .book) == ["title", "author"])
        #expect(DefaultKey.fields(of: books, kind: .generic) == nil)
    }

    @Test func theDefaultKeyOfRawRecords() throws {
        var choice = DefaultKey(kind: .product)
        let bytes = Array("name,price,sku\nWii,269,A-1\nPS5,499,\n".utf8)
        let reader = try #require(
            try CSVCodec.csv.makeReader(MemoryInput(bytes, name: "p.csv"), context: ReadContext(kind: .product))
                as? any RawRecordReader)
        while try reader.readRaw({ choice.observe($0) }) {}
        #expect(choice.records == 2)
        #expect(choice.fields == ["name"])
    }
}

/// Every record of `text`, read by `codec` as products.
func readRecords(_ text: String, codec: any Codec, kind: RecordKind = .product) throws -> [Record] {
    let reader = try codec.makeReader(MemoryInput(Array(text.utf8), name: "test"), context: ReadContext(kind: kind))
    var records: [Record] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

/// `ferry validate`'s `x-ferry-unique` compares the key text merge matches
/// by: one key, one digest, in one pass and in halves.
@Suite struct UniqueKeyTextTests {
    @Test(arguments: [false, true]) func validateFindsDuplicatesByKeyText(inHalves: Bool) throws {
        let scratch = try ScratchFolder()
        var text = "name,sku\nA,A-1\nB, A-1\nC,Cre\u{0300}me\nD,Crème\u{A0}\nE,\"\"\nF,\"\"\nG,\nH,\n"
        // Enough rows for the halves to be worth it; their keys all differ.
        for index in 0..<2_000 { text += "P\(index),S\(index)\n" }
        // A key of the first half, again at the end of the second.
        text += "Z,\tS0\u{A0}\n"
        let path = try scratch.write("keys.csv", text)
        var options = ValidationOptions()
        options.kind = .product
        options.partsThreshold = inHalves ? 0 : .max
        let report = Validator().validate([path], options: options)
        #expect(report.files.first.map { $0.partCount > 1 } == inHalves)
        let duplicates = report.diagnostics.filter { $0.code == .recordDuplicateKey }
        // Lines 3, 5 and 2010 repeat lines 2, 4 and 10 (records 1, 3 and
        // 9); empty skus (lines 6 to 9) are no keys.
        #expect(duplicates.map(\.location.line) == [3, 5, 2010])
        #expect(duplicates.map { $0.arguments.last } == [.integer(1), .integer(3), .integer(9)])
        #expect(duplicates.map(\.value) == ["A-1", "Crème", "S0"])
    }
}
