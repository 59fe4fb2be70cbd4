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
        #expect(failure(.product, [("name", .string("Wii")), ("price", .integer(0)), ("sku", .array([]))]) == nil)
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
        #expect(text.arguments == [.string("price"), .message("type.number"), .message("type.string")])
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
}
