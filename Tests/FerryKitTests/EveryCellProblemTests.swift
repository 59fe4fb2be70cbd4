import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// A cell that does not fit its type no longer hides the rest of its
/// record: `validate` reports each cell's type error and every rule the
/// other cells break, in the order of the record's columns, the same in
/// one pass and in halves.
@Suite struct EveryCellProblemTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    /// Books whose isbn comes before price: every 7th row has `pages` =
    /// `abc`, `readThisBook` = `maybe`, a bad isbn and a negative price.
    static func books() -> String {
        var text = "title,author,isbn,readThisBook,pages,price\n"
        for index in 0..<600 {
            text +=
                index % 7 == 3
                ? "Book \(index),A,12\(index),maybe,abc,-3\n" : "Book \(index),A,,true,\(index),\(index).5\n"
        }
        return text
    }

    @Test func everyProblemOfTheRecordInColumnOrder() throws {
        let path = try scratch.write("books.csv", Self.books())
        var options = ValidationOptions()
        options.partsThreshold = .max
        let report = Validator().validate([path], options: options)
        let first = report.diagnostics.filter { $0.location.record == 3 }
        #expect(first.map(\.code.rawValue) == ["schema.format", "csv.invalidBool", "csv.invalidInteger", "record.negative"])
        #expect(first.map(\.location.field) == ["isbn", "readThisBook", "pages", "price"])
        #expect(first.map(\.location.column) == [10, 14, 20, 24])
        #expect(first.allSatisfy { $0.location.line == 5 })
        #expect(report.files.first?.records == 600)
        #expect(report.invalidRecords == 86 && report.errorCount == 86 * 4)
    }

    @Test func halvesGiveTheReportOfOnePass() throws {
        let path = try scratch.write("books.csv", Self.books())
        try expectSameReports(path, inHalves: true, caps: [nil, 1, 5, 50])
    }
}
