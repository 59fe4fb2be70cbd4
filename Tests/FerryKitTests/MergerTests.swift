import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// `Merger` itself: the errors it throws, with their arguments and places,
/// and the spilled records' encoding.
@Suite struct MergerTests {
    func expectError(
        _ code: FerryError.Code, _ arguments: [MessageArgument], file: String?, _ run: () throws(FerryError) -> Void
    ) {
        do throws(FerryError) {
            try run()
            Issue.record("no error; expected \(code.rawValue)")
        } catch {
            #expect(error.code == code)
            #expect(error.arguments == arguments)
            #expect(error.location.file == file)
        }
    }

    @Test func anInputOfAnotherKindNamesBothKindsAndFiles() throws {
        let folder = try ScratchFolder()
        let products = try folder.write("p.jsonl", "{\"name\":\"Wii\",\"price\":1}\n")
        let books = try folder.write("b.jsonl", "{\"title\":\"Dune\",\"author\":\"Frank Herbert\"}\n")
        let output = folder.path("out.json")
        expectError(
            .mergeKindMismatch, [.path(books), .string("book"), .path(products), .string("product")], file: books
        ) { () throws(FerryError) in
            _ = try Merger().merge([products, books], into: output, options: MergeOptions())
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func genericRecordsWithoutAKeyNameTheOption() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("g.jsonl", "{\"a\":1}\n")
        var options = MergeOptions()
        options.kind = .generic
        expectError(.mergeKeyRequired, [.string("--key")], file: nil) { () throws(FerryError) in
            _ = try Merger().merge([input], into: folder.path("o.json"), options: options)
        }
    }

    @Test func theCountsAddUpUnderEveryPolicy() throws {
        let folder = try ScratchFolder()
        let first = try folder.write("a.jsonl", "{\"sku\":\"1\",\"name\":\"A\",\"price\":1}\n{\"sku\":\"2\",\"name\":\"B\",\"price\":2}\n")
        let second = try folder.write(
            "b.csv", "sku,name,price\n1,A,1.0\n2,B,3\n2,B,4\n3,C,5\n")
        for policy in ConflictPolicy.allCases {
            var options = MergeOptions()
            options.policy = policy
            options.overwrite = true
            let report = try Merger().merge([first, second], into: folder.path("o.jsonl"), options: options)
            #expect(report.countsAddUp)
            #expect(report.recordsIn == 6 && report.recordsOut == 3 && report.identicalDuplicates == 1)
            // Under keep-last the third copy of 2 is compared with the second.
            #expect(report.conflicts.map(\.second.record) == [1, 2])
            #expect(report.conflicts.map(\.first.file) == (policy == .keepLast ? [first, second] : [first, first]))
            #expect(report.written == (policy != .fail))
        }
    }

    @Test func spilledRecordsReadBackAsTheyWere() throws {
        let fields = FieldList(["name", "price", "tags", "photo", "big", "none", "flag"])
        let record = Record(
            fields: fields,
            values: [
                .string("Crème \"brûlée\""), .double(2.5), .array([.integer(1), .object(OrderedObject([("a", .null)]))]),
                .bytes([0x89, 0x50]), .number(NumberText(unchecked: "123456789012345678901234567890")), .null, .bool(true),
            ], origin: RecordOrigin(index: 7, byteOffset: 99))
        var bytes: [UInt8] = []
        RawRecord.with(record) { SpilledRecord.encode($0, shape: 0, to: &bytes) }
        var cells = RawCellBuffer()
        defer { cells.deallocate() }
        let back = try bytes.withUnsafeBytes { (buffer) throws(FerryError) -> Record in
            #expect(SpilledRecord.length(header: buffer) == buffer.count)
            return try SpilledRecord.decode(buffer, shapes: [fields], cells: &cells) { $0.record() }
        }
        #expect(back.values == record.values)
        #expect(back.origin == record.origin)
        #expect(back.fields.names == fields.names)
    }
}
