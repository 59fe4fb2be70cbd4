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

    /// A tape keeps the same cells a spill does, nested values beside it
    /// by index rather than in place, and gives each record back whole.
    @Test func tapedRecordsReadBackAsTheyWere() throws {
        let fields = FieldList(["name", "price", "tags", "photo", "big", "none", "flag", "count"])
        func record(_ index: Int) -> Record {
            let nested: Value = .object(OrderedObject([("a", .null), ("when", .date(Date(timeIntervalSinceReferenceDate: 9)))]))
            let values: [Value] = [
                .string("Crème \"brûlée\" \(index)"), .double(2.5 + Double(index)), .array([.integer(Int64(index)), nested]),
                .bytes([0x89, 0x50, UInt8(index)]), .number(NumberText(unchecked: "123456789012345678901234567890")),
                .null, .bool(index == 1), .integer(Int64(-7 * index)),
            ]
            return Record(fields: fields, values: values, origin: RecordOrigin(index: index, byteOffset: 99 * index))
        }
        let records = (0..<3).map(record)
        let tape = RecordTape(capacity: 16)  // grown as records come
        for record in records { try RawRecord.with(record) { (raw) throws(FerryError) in tape.append(raw) } }
        var back: [Record] = []
        var offsets: [Int] = []
        try tape.forEachWithOffset { (raw, offset) throws(FerryError) in
            back.append(raw.record())
            offsets.append(offset)
        }
        #expect(back.map { $0.values } == records.map { $0.values })
        #expect(back.map { $0.origin } == records.map { $0.origin })
        var cells = RawCellBuffer()
        defer { cells.deallocate() }
        let second = try tape.withRecord(at: offsets[1], cells: &cells) { $0.record() }
        #expect(second.values == records[1].values)
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
        try RawRecord.with(record) { (raw) throws(FerryError) in try SpilledRecord.encode(raw, shape: 0, to: &bytes) }
        var cells = RawCellBuffer()
        defer { cells.deallocate() }
        let back = try bytes.withUnsafeBytes { (buffer) throws(FerryError) -> Record in
            #expect(SpilledRecord.length(header: buffer) == buffer.count)
            return try SpilledRecord.decode(buffer, shapes: [fields], cells: &cells) { $0.record() }
        }
        #expect(back.values == record.values)
        #expect(back.origin == record.origin)
        #expect(back.fields.names == fields.names)

        // A record past the 32-bit length is refused, not cut: its bytes
        // would be read back as another record. (4 GiB stands in as 100.)
        var more = bytes
        let error = try #require(throws: FerryError.self) {
            try RawRecord.with(record) { (raw) throws(FerryError) in
                try SpilledRecord.encode(raw, shape: 0, to: &more, maxLength: 100)
            }
        }
        #expect(error.code == .recordTooLarge && error.location.record == 7 && error.location.byteOffset == 99)
        #expect(more == bytes)
    }
}

/// `--embed-photos` and `--photos-dir` in a merge: the old app's archive,
/// whose photos are bytes, and its exports, whose photos are files beside
/// them, are the same products once the files are read.
@Suite struct MergePhotoTests {
    let sources = [
        TestPaths.example("Products"), TestPaths.example("products.csv"), TestPaths.example("products.json"),
    ]

    @Test func embeddedPhotosMakeTheArchiveAndItsExportsOneProduct() throws {
        let folder = try ScratchFolder()
        var options = MergeOptions()
        let plain = try Merger().merge(sources, into: folder.path("plain.json"), options: options)
        // The archive's bytes against the exports' paths.
        #expect(plain.conflicts.count == 6 && plain.conflicts.allSatisfy { $0.differences.map(\.field) == ["photo"] })
        options.embedPhotos = true
        let embedded = try Merger().merge(sources, into: folder.path("embedded.json"), options: options)
        #expect(embedded.conflicts.isEmpty && embedded.identicalDuplicates == 6 && embedded.recordsOut == 3)
        #expect(embedded.countsAddUp)
        let records = try readRecords(
            String(decoding: try folder.read("embedded.json"), as: UTF8.self), codec: JSONCodec())
        for (record, photo) in zip(records, ["xbox-360.png", "wii.png", "wireless-controller.png"]) {
            #expect(record["photo"] == .string(Photo.dataURI(try TestPaths.examplePhoto(photo))))
        }
    }

    @Test func thePhotosFolderHoldsTheKeptRecordsPhotosOnly() throws {
        let folder = try ScratchFolder()
        var options = MergeOptions()
        options.photosDirectory = folder.path("pics")
        let report = try Merger().merge(sources, into: folder.path("out.csv"), options: options)
        #expect(report.recordsOut == 3 && report.conflicts.isEmpty)
        #expect(try folder.contents("pics").sorted() == ["wii.png", "wireless-controller.png", "xbox-360.png"])
        #expect(try folder.read("pics/wii.png") == (try TestPaths.examplePhoto("wii.png")))
        let csv = String(decoding: try folder.read("out.csv"), as: UTF8.self)
        #expect(csv.contains("Wii,pics/wii.png,269.0"))
    }

    /// An archive output embeds the exports' referenced photos, as
    /// `convert` does, with no option.
    @Test func anArchiveOutputEmbedsReferencedPhotos() throws {
        let folder = try ScratchFolder()
        let report = try Merger().merge(
            Array(sources.dropFirst()), into: folder.path("out.archive"), options: MergeOptions())
        #expect(report.recordsOut == 3 && report.identicalDuplicates == 3)
        let reader = try ArchiveCodec().makeReader(
            MemoryInput(try folder.read("out.archive"), name: "out.archive"), context: ReadContext(kind: .product))
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        #expect(records.count == 3)
        #expect(records.allSatisfy { if case .bytes = $0["photo"] { true } else { false } })
    }

    /// A write that fails after the photos went out takes them back: the
    /// output is `/dev/full`, which takes no byte. A photo the folder had
    /// before stays.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aWriteThatFailsTakesItsPhotosBack() throws {
        let folder = try ScratchFolder()
        _ = try folder.write("pics/keep.png", try TestPaths.examplePhoto("wii.png"))
        var options = MergeOptions()
        options.photosDirectory = folder.path("pics")
        options.to = "csv"
        options.overwrite = true
        #expect(throws: FerryError.self) { try Merger().merge(sources, into: "/dev/full", options: options) }
        #expect(try folder.contents("pics") == ["keep.png"])
    }

    /// Under `fail`, a conflict writes nothing: no output, and no photo.
    @Test func aFailedMergeWritesNoPhoto() throws {
        let folder = try ScratchFolder()
        let csv = String(decoding: try Data(contentsOf: URL(fileURLWithPath: sources[1])), as: UTF8.self)
        let cheaper = try folder.write("cheaper.csv", csv.replacingOccurrences(of: "269.0", with: "249.0"))
        for photo in ["wii.png", "xbox-360.png", "wireless-controller.png"] {
            _ = try folder.write("photos/" + photo, try TestPaths.examplePhoto(photo))
        }
        var options = MergeOptions()
        options.photosDirectory = folder.path("pics")
        options.policy = .fail
        let report = try Merger().merge([sources[0], cheaper], into: folder.path("out.csv"), options: options)
        #expect(!report.written && report.conflicts.count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path("pics")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.csv")))
    }
}
