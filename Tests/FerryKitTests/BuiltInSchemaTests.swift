import FerryCore
import FerryKit
import FerryTestSupport
import Foundation
import Testing

/// The built-in kinds' schemas: the files people read are the ones built
/// in, the examples pass them, and the validator's plan gives the same
/// first error as the schema's full check.
@Suite struct BuiltInSchemaTests {
    static let schemaFolder = TestPaths.packageRoot.appendingPathComponent("Formats/schemas")

    @Test(arguments: [RecordKind.product, .book])
    func embeddedCopyEqualsTheFile(_ kind: RecordKind) throws {
        let file = try Schema(contentsOf: Self.schemaFolder.appendingPathComponent("\(kind.rawValue).schema.json").path)
        #expect(
            file.document == kind.schema.document,
            "Sources/FerryCore/EmbeddedSchemas.swift is stale: run python3 Scripts/embed-schemas.py")
        #expect(file.fieldRules == kind.fields)
    }

    @Test func everySchemaFileIsAKind() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.schemaFolder.path).sorted()
        #expect(names == ["book.schema.json", "product.schema.json"])
    }

    /// Every record of every example passes its kind's schema: not one
    /// diagnostic, with every rule checked (not only the first).
    @Test(arguments: [
        ("products.json", "json"), ("products.csv", "csv"), ("products-inline.json", "json"), ("books.json", "json"),
        ("books.jsonl", "jsonl"), ("books.csv", "csv"), ("Products", "archive"),
    ])
    func examplesPassTheirSchemas(_ name: String, format: String) throws {
        let codec = try #require(CodecRegistry.standard.codec(id: format))
        let input = try FileInput(path: TestPaths.example(name))
        defer { input.close() }
        let reader = try codec.makeReader(input, context: ReadContext())
        var records = 0
        var kinds: Set<RecordKind> = []
        var found: [Diagnostic] = []
        while let record = try reader.next() {
            let kind = reader.declaredKind ?? RecordKind.infer(from: record.fields)
            kinds.insert(kind)
            kind.schema.check(record, at: FerryCore.SourceLocation(file: name, record: records)) {
                found.append($0)
                return true
            }
            records += 1
        }
        #expect(records > 0)
        #expect(kinds == [name.lowercased().hasPrefix("book") ? .book : .product])
        #expect(found.isEmpty, "\(found)")
    }

    /// Random records of both kinds, of values of every type at the rules'
    /// edges: the validator's first error, on records and on raw records,
    /// is the first diagnostic of the full check.
    @Test(arguments: [RecordKind.product, .book])
    func validatorAgreesWithTheFullCheck(_ kind: RecordKind) throws {
        let pool: [Value] = [
            .null, .bool(true), .integer(-1), .integer(0), .integer(7), .double(-0.5), .double(-0.0), .double(12.0),
            .double(2.5), .double(.nan), .string(""), .string("x"), .string("0-306-40615-2"),
            .string("978-0-306-40615-8"), .bytes([0x89, 0x50]), .date(Date(timeIntervalSince1970: 1)), .array([]),
            .object(OrderedObject([("a", .integer(1))])),
        ]
        let names = kind.fields.map(\.name) + ["extra"]
        var generator = SeededGenerator(seed: 0x5C4E_3A + UInt64(names.count))
        var validator = RecordValidator(kind: kind)
        var failures = 0
        for index in 0..<3000 {
            let chosen = names.filter { _ in generator.next() % 3 != 0 }.shuffled(using: &generator)
            // Most values fit the field's type (so that records pass, and
            // later fields are reached); one in six is any value at all.
            func value(for name: String) -> Value {
                let fitting: [Value]
                switch kind.rule(for: name)?.type {
                case .string?: fitting = [.string("x"), .string("978-0-306-40615-7"), .string("0-306-40615-2")]
                case .number?: fitting = [.integer(7), .double(2.5), .integer(0)]
                case .integer?: fitting = [.integer(7), .double(12.0)]
                case .bool?: fitting = [.bool(false)]
                case .photo?: fitting = [.string("p.png"), .bytes([1])]
                case nil: fitting = [.string("e")]
                }
                let choices = generator.next() % 6 == 0 ? pool : fitting
                return choices.randomElement(using: &generator) ?? .null
            }
            let record = Record(chosen.map { ($0, value(for: $0)) })
            let location = FerryCore.SourceLocation(file: "f", record: index)
            var expected: FerryError?
            kind.schema.check(record, at: location) { diagnostic in
                expected = FerryError(diagnostic.code, diagnostic.arguments, at: diagnostic.location)
                return false
            }
            var whole: FerryError?
            do throws(FerryError) { try validator.validate(record, at: location) } catch { whole = error }
            // Raw records of values (`.other` cells), and of cells as readers
            // make them (text, bytes, numbers in place).
            var raw: FerryError?
            do throws(FerryError) {
                try RawRecord.with(record) { (raw) throws(FerryError) in try validator.validate(raw) }
            } catch {
                raw = error
            }
            let native = Self.withNativeCells(record) { raw -> FerryError? in
                do throws(FerryError) {
                    try validator.validate(raw)
                    return nil
                } catch {
                    return error
                }
            }
            let rawExpected = expected?.withLocation(FerryCore.SourceLocation(field: expected?.location.field))
            #expect(whole == expected, "\(record.pairs)")
            #expect(raw == rawExpected, "\(record.pairs)")
            #expect(native == rawExpected, "\(record.pairs)")
            if expected != nil { failures += 1 }
        }
        // Both outcomes, often.
        #expect(failures > 600 && failures < 2400, "\(failures) of 3000 fail")
    }
}

extension BuiltInSchemaTests {
    /// Calls `body` with `record` as a raw record whose strings are `.text`
    /// and bytes `.bytes` cells, numbers and bools in place, as readers
    /// hand them out.
    static func withNativeCells<T>(_ record: Record, _ body: (RawRecord) -> T) -> T {
        var copies: [UnsafeMutableRawBufferPointer] = []
        defer { copies.forEach { $0.deallocate() } }
        func copy(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            memory.copyBytes(from: bytes)
            copies.append(memory)
            return UnsafeRawBufferPointer(rebasing: memory[0..<bytes.count])
        }
        var cells: [RawValue] = []
        var others: [Value] = []
        for value in record.values {
            switch value {
            case .null: cells.append(.null)
            case .bool(let flag): cells.append(.bool(flag))
            case .integer(let number): cells.append(.integer(number))
            case .double(let number): cells.append(.double(number))
            case .string(let text): cells.append(.text(copy(Array(text.utf8)).assumingMemoryBound(to: UInt8.self)))
            case .bytes(let bytes): cells.append(.bytes(copy(bytes)))
            default:
                others.append(value)
                cells.append(.other(others.count - 1))
            }
        }
        return cells.withUnsafeBufferPointer { cells in
            RawRecord.with(fields: record.fields, values: cells, others: others, origin: record.origin, body)
        }
    }
}

extension FerryError {
    fileprivate func withLocation(_ location: FerryCore.SourceLocation) -> FerryError {
        var copy = self
        copy.location = location
        return copy
    }
}
