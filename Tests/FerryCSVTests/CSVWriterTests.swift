import Foundation
import Testing

@testable import FerryCSV
@testable import FerryKit

@Suite struct CSVWriterTests {
    @Test func quotingIsMinimalAndNullDiffersFromEmpty() throws {
        let fields = FieldList(["name", "note", "price", "photo"])
        let records = [
            Record(fields: fields, values: [.string("Wii"), .string("a, \"b\"\nc"), .double(19.99), .null]),
            Record(fields: fields, values: [.string(""), .string("plain"), .integer(3), .bytes([1, 2])]),
        ]
        let text = try writeCSV(records)
        #expect(text == "name,note,price,photo\nWii,\"a, \"\"b\"\"\nc\",19.99,\n\"\",plain,3,\"data:application/octet-stream;base64,AQI=\"\n")
        let back = readCSV(text, kind: .generic)
        #expect(back.records.map { $0["name"] } == [.string("Wii"), .string("")])
    }

    @Test func optionsChangeTheLayout() throws {
        let record = Record([("a", .string("x")), ("b", .bool(true)), ("c", .null)])
        #expect(try writeCSV([record], options: ["quoting": "all"]) == "\"a\",\"b\",\"c\"\n\"x\",\"true\",\n")
        #expect(try writeCSV([record], options: ["line-ending": "crlf"]) == "a,b,c\r\nx,true,\r\n")
        #expect(try writeCSV([record], options: ["delimiter": ";"]) == "a;b;c\nx;true;\n")
        #expect(try writeCSV([record], options: ["no-header": ""]) == "x,true,\n")
        #expect(try writeCSV([record], codec: .tsv) == "a\tb\tc\nx\ttrue\t\n")
    }

    @Test func nestedValuesBecomeJSONText() throws {
        let record = Record([("tags", .array([.string("a"), .integer(1)])), ("meta", .object(OrderedObject([("k", .null)])))])
        #expect(try writeCSV([record]) == "tags,meta\n\"[\"\"a\"\",1]\",\"{\"\"k\"\":null}\"\n")
    }

    @Test func laterRecordsAreWrittenByName() throws {
        let first = Record([("a", .integer(1)), ("b", .integer(2))])
        let reordered = Record([("b", .integer(4)), ("a", .integer(3))])
        let missing = Record([("a", .integer(5))])
        #expect(try writeCSV([first, reordered, missing]) == "a,b\n1,2\n3,4\n5,\n")
        #expect(throws: FerryError.self) { try writeCSV([first, Record([("a", .integer(1)), ("z", .integer(2))])]) }
        #expect(throws: FerryError.self) { try writeCSV([Record([("a", .double(.infinity))])]) }
    }

    @Test func productsAndBooksRoundTrip() throws {
        let books = [
            Record([
                ("title", .string("Advanced Swift")), ("author", .string("")), ("description", .null),
                ("pages", .integer(612)), ("readThisBook", .bool(false)), ("price", .double(49)), ("isbn", .string("9783981786248")),
            ])
        ]
        let text = try writeCSV(books)
        let back = readCSV(text, kind: .book)
        #expect(back.error == nil)
        #expect(back.records.map(\.values) == books.map(\.values))
    }
}
