import Testing

@testable import FerryCore

@Suite struct RecordKindTests {
    @Test(arguments: [
        (["name", "price"], RecordKind.product),
        (["name", "photo", "sku"], .product),
        (["title", "author"], .book),
        (["title", "pages", "price"], .book),
        (["name", "price", "title", "author"], .generic),
        (["name"], .generic),
        (["id", "value"], .generic),
    ])
    func kindIsInferredOnlyWhenUnambiguous(fields: [String], kind: RecordKind) {
        #expect(RecordKind.infer(from: FieldList(fields)) == kind)
    }

    func failure(_ kind: RecordKind, _ pairs: [(String, Value)]) -> FerryError? {
        do {
            try kind.validate(Record(pairs), at: FerryCore.SourceLocation(file: "f", record: 4))
            return nil
        } catch {
            return error
        }
    }

    @Test func validProductsAndBooksPass() {
        #expect(failure(.product, [("name", .string("Wii")), ("price", .double(269)), ("photo", .null)]) == nil)
        #expect(failure(.product, [("name", .string("Wii")), ("price", .integer(0)), ("tags", .array([]))]) == nil)
        #expect(failure(.product, [("name", .string("Wii")), ("sku", .string("GS-1")), ("photo", .bytes([1]))]) == nil)
        // An integer is an integer however it is written (JSON Schema's rule).
        #expect(failure(.book, [("title", .string("T")), ("pages", .double(12))]) == nil)
        #expect(
            failure(
                .book,
                [("title", .string("T")), ("pages", .integer(10)), ("readThisBook", .bool(true)), ("isbn", .null)]) == nil)
    }

    @Test func productFailuresCarryCodeFieldAndRecord() throws {
        let missing = try #require(failure(.product, [("price", .double(1))]))
        #expect(missing.code == .recordMissingField)
        #expect(missing.location == FerryCore.SourceLocation(file: "f", record: 4, field: "name"))

        let empty = try #require(failure(.product, [("name", .string(""))]))
        #expect(empty.code == .recordEmptyField)

        let negative = try #require(failure(.product, [("name", .string("a")), ("price", .double(-0.5))]))
        #expect(negative.code == .recordNegative)
        #expect(negative.location.field == "price")

        let nan = try #require(failure(.product, [("name", .string("a")), ("price", .double(.nan))]))
        #expect(nan.code == .recordNegative)

        let text = try #require(failure(.product, [("name", .string("a")), ("price", .string("12"))]))
        #expect(text.code == .recordWrongType)
        #expect(text.arguments == [.string("price"), .message(.typeNumber), .message(.typeString)])
    }

    /// `sku`, new in the product schema: an optional string, not empty.
    @Test func productSkuIsANonEmptyString() throws {
        let empty = try #require(failure(.product, [("name", .string("a")), ("sku", .string(""))]))
        #expect(empty.code == .schemaMinLength)
        #expect(empty.arguments == [.string("sku"), .integer(1)])
        #expect(empty.location == FerryCore.SourceLocation(file: "f", record: 4, field: "sku"))
        let array = try #require(failure(.product, [("name", .string("a")), ("sku", .array([]))]))
        #expect(array.code == .recordWrongType)
        #expect(array.arguments == [.string("sku"), .typeName("string"), .typeName("array")])
    }

    /// A book's ISBN has its check digit right.
    @Test func bookIsbnIsChecked() throws {
        #expect(failure(.book, [("title", .string("T")), ("isbn", .string("978-0-306-40615-7"))]) == nil)
        let wrong = try #require(failure(.book, [("title", .string("T")), ("isbn", .string("978-0-306-40615-8"))]))
        #expect(wrong.code == .schemaFormat)
        #expect(wrong.arguments == [.string("isbn"), .string("isbn")])
        #expect(wrong.location.field == "isbn")
    }

    @Test func bookFieldsAreTyped() throws {
        let pages = try #require(failure(.book, [("title", .string("T")), ("pages", .double(1.5))]))
        #expect(pages.code == .recordWrongType)
        #expect(pages.location.field == "pages")
        let read = try #require(failure(.book, [("title", .string("T")), ("readThisBook", .string("yes"))]))
        #expect(read.code == .recordWrongType)
        let negative = try #require(failure(.book, [("title", .string("T")), ("pages", .integer(-1))]))
        #expect(negative.code == .recordNegative)
    }

    @Test func validatorFollowsChangingFieldLists() throws {
        var validator = RecordValidator(kind: .product)
        try validator.validate(Record([("name", .string("a")), ("price", .double(1))]), at: .unknown)
        #expect(throws: FerryError.self) {
            try validator.validate(Record([("price", .double(1)), ("name", .null)]), at: .unknown)
        }
    }

    /// More field lists than the validator keeps, made and dropped as it
    /// goes, with raw and whole records mixed: each record is checked
    /// against its own list, never a stale one whose memory was reused.
    @Test func rawValidationFollowsFieldListsComingAndGoing() throws {
        var validator = RecordValidator(kind: .product)
        for round in 0..<60 {
            // The price moves: after 0…11 extra fields.
            let extras = round % 12
            let names = (0..<extras).map { "extra\($0)" } + ["price", "name"]
            let record = Record(
                fields: FieldList(names),
                values: Array(repeating: Value.string("x"), count: extras) + [.double(round % 2 == 0 ? 1 : -1), .string("n")])
            var outcome: FerryError?
            do throws(FerryError) {
                try RawRecord.with(record) { (raw) throws(FerryError) in try validator.validate(raw) }
            } catch {
                outcome = error
            }
            if round % 2 == 0 {
                #expect(outcome == nil, "round \(round)")
            } else {
                #expect(outcome?.code == .recordNegative, "round \(round)")
                #expect(outcome?.location.field == "price")
            }
            // Whole records with lists of their own push this round's list
            // out of the validator's memory before it is dropped.
            for _ in 0..<9 { try validator.validate(Record([("name", .string("a"))]), at: .unknown) }
        }
    }

    /// Two lists that alternate, as records with and without a photo do:
    /// each is found again among the recent ones, with its own positions.
    @Test func rawValidationFollowsAlternatingFieldLists() throws {
        var validator = RecordValidator(kind: .product)
        let first = Record([("name", .string("n")), ("price", .double(1))])
        let second = Record([("price", .double(-1)), ("photo", .null), ("name", .string("n"))])
        for _ in 0..<4 {
            try RawRecord.with(first) { (raw) throws(FerryError) in try validator.validate(raw) }
            var outcome: FerryError?
            do throws(FerryError) {
                try RawRecord.with(second) { (raw) throws(FerryError) in try validator.validate(raw) }
            } catch {
                outcome = error
            }
            #expect(outcome?.code == .recordNegative)
            #expect(outcome?.location.field == "price")
        }
    }
}
