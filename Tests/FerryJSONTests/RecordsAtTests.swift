@testable import FerryJSON
import FerryKit
import Testing

/// `--records-at POINTER`: the records are the elements of the array an
/// RFC 6901 pointer names, read in flat memory, located in the file.
@Suite struct RecordsAtTests {
    // MARK: - Pointers

    @Test(arguments: [
        ("", [String]()), ("/products", ["products"]), ("/a~1b", ["a/b"]), ("/m~0n", ["m~n"]),
        ("/~01", ["~1"]), ("/", [""]), ("/a/0/b", ["a", "0", "b"]), ("/a//b", ["a", "", "b"]),
    ])
    func pointerTokens(_ text: String, tokens: [String]) throws {
        #expect(try JSONPointer(text).tokens == tokens)
    }

    @Test(arguments: ["products", "/a~", "/a~2b", "#/a"])
    func malformedPointer(_ text: String) throws {
        let error = try #require(throws: FerryError.self) { try JSONPointer(text) }
        #expect(error.code == .jsonInvalidPointer)
        #expect(error.code.category == .usage)
        #expect(error.arguments == [.string(text)])
    }

    @Test func memberPointerEscapes() throws {
        #expect(JSONPointer.member("a/b~c") == "/a~1b~0c")
        #expect(try JSONPointer(JSONPointer.member("a/b~c")).tokens == ["a/b~c"])
    }

    // MARK: - Reading

    static let wrapped = """
        {"meta": {"v": [1, {"x": "]"}], "s": "a\\"}b"},
         "products": [
          {"name": "Wii", "price": 269},
          {"name": "DS", "price": 149}
         ],
         "next": {"deep": [[{}]]}, "n": null}
        """

    static func records(_ text: String, at pointer: String, seed: UInt64? = nil, raw: Bool = false) throws -> [Record] {
        let bytes = Array(text.utf8)
        let input: any ByteInput = seed.map { trickleInput(bytes, seed: $0) } ?? MemoryInput(bytes)
        let reader = JSONReader(input, layout: .document, pointer: try JSONPointer(pointer))
        var records: [Record] = []
        if raw {
            while try reader.readRaw({ (record) throws(FerryError) in records.append(record.record()) }) {}
        } else {
            while let record = try reader.next() { records.append(record) }
        }
        return records
    }

    @Test(arguments: [nil, 1, 2, 3] as [UInt64?], [false, true])
    func recordsAreTheArraysElements(seed: UInt64?, raw: Bool) throws {
        let records = try Self.records(Self.wrapped, at: "/products", seed: seed, raw: raw)
        #expect(records.map { $0["name"] } == [.string("Wii"), .string("DS")])
        #expect(records.map(\.origin.index) == [0, 1])
        // Each origin is its brace in the file.
        let bytes = Array(Self.wrapped.utf8)
        for record in records { #expect(bytes[record.origin.byteOffset] == UInt8(ascii: "{")) }
    }

    @Test func pointerThroughArraysAndEscapes() throws {
        let text = #"[{"skip": [{"a": 1}]}, {"a/b": {"m~n": [{"k": 1}, {"k": 2}]}}]"#
        let records = try Self.records(text, at: "/1/a~1b/m~0n")
        #expect(records.map { $0["k"] } == [.integer(1), .integer(2)])
    }

    @Test func emptyPointerIsTheTopLevel() throws {
        #expect(try Self.records(#"[{"a": 1}]"#, at: "").count == 1)
    }

    // MARK: - Errors

    struct Failure: Sendable, CustomTestStringConvertible {
        let text: String
        let pointer: String
        let code: FerryError.Code
        let arguments: [MessageArgument]
        let place: [Int?]
        var testDescription: String { "\(pointer) in \(text.debugDescription)" }
    }

    static let failures = [
        Failure(
            text: #"{"a": [{"x": 1}]}"#, pointer: "/b", code: .jsonPointerNotFound, arguments: [.string("/b")],
            place: [1, 17]),
        Failure(
            text: #"{"a": {"b": "text"}}"#, pointer: "/a/b", code: .jsonPointerNotArray,
            arguments: [.string("/a/b"), .typeName("string")], place: [1, 13]),
        Failure(
            text: "{\"a\":\n {\"b\": 1}}", pointer: "/a", code: .jsonPointerNotArray,
            arguments: [.string("/a"), .typeName("object")], place: [2, 2]),
        Failure(
            text: #"{"a": 3}"#, pointer: "/a/0", code: .jsonPointerNotFound, arguments: [.string("/a/0")],
            place: [1, 7]),
        Failure(
            text: #"[[{"x": 1}]]"#, pointer: "/01", code: .jsonPointerNotFound, arguments: [.string("/01")],
            place: [1, 12]),
        // A bad record inside the array: located in the file, with its index.
        Failure(
            text: "{\"a\": [{\"x\": 1},\n {\"x\": tru}]}", pointer: "/a", code: .jsonUnexpectedCharacter,
            arguments: [.byte(UInt8(ascii: "}"))], place: [2, 11]),
        // What follows the array is still checked: the document must be JSON.
        Failure(
            text: #"{"a": [{"x": 1}], "b": [1,]}"#, pointer: "/a", code: .jsonUnexpectedCharacter,
            arguments: [.byte(UInt8(ascii: "]"))], place: [1, 27]),
        Failure(
            text: #"{"b": {"c" 1}, "a": []}"#, pointer: "/a", code: .jsonUnexpectedCharacter,
            arguments: [.byte(UInt8(ascii: "1"))], place: [1, 12]),
        Failure(
            text: #"{"a": [{"x": 1}]} x"#, pointer: "/a", code: .jsonTrailingData,
            arguments: [.byte(UInt8(ascii: "x"))], place: [1, 19]),
    ]

    @Test(arguments: failures, [nil, 4] as [UInt64?])
    func failure(_ check: Failure, seed: UInt64?) throws {
        let error = try #require(throws: FerryError.self) {
            _ = try Self.records(check.text, at: check.pointer, seed: seed)
        }
        #expect(error.code == check.code)
        #expect(error.arguments == check.arguments)
        #expect(error.place == check.place)
    }

    /// Every truncation of the wrapped document: the same outcome whole and
    /// in small reads, never a crash (refills land inside every step).
    @Test func truncationsReadTheSameInChunks() throws {
        let bytes = Array(Self.wrapped.utf8)
        for length in 0..<bytes.count {
            let text = String(decoding: bytes[0..<length], as: UTF8.self)
            let whole = Result { try Self.records(text, at: "/products") }
            let chunked = Result { try Self.records(text, at: "/products", seed: UInt64(length)) }
            switch (whole, chunked) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(length)")
            case (.failure(let a), .failure(let b)): #expect(a as? FerryError == b as? FerryError, "\(length)")
            default: Issue.record("whole and chunked differ at \(length)")
            }
        }
    }

    /// Skipped values are built into nothing, but nested no deeper than the limit.
    @Test func skippedValuesRespectTheDepthLimit() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let error = try #require(throws: FerryError.self) {
            _ = try Self.records(#"{"skip": \#(deep), "a": []}"#, at: "/a")
        }
        #expect(error.code == .nestingTooDeep)
    }

    // MARK: - Flat memory

    /// An input that makes `{"meta": …, "products": [N records], "tail": …}`
    /// as it is read, never whole.
    final class WrappedInput: ByteInput {
        let name = "big.json"
        let sizeHint: Int? = nil
        private var pending: [UInt8] = Array(#"{"meta": {"note": "x"}, "products": ["#.utf8)
        private var made = 0
        private let count: Int
        private var ended = false

        init(records: Int) { count = records }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
            while pending.count < buffer.count && !ended {
                if made < count {
                    if made > 0 { pending.append(UInt8(ascii: ",")) }
                    pending += Array(#"{"name": "product \#(made)", "price": \#(made % 1000)}"#.utf8)
                    made += 1
                } else {
                    pending += Array(#"], "tail": {"count": 1}}"#.utf8)
                    ended = true
                }
            }
            let count = min(buffer.count, pending.count)
            buffer.copyBytes(from: pending[0..<count])
            pending.removeFirst(count)
            return count
        }
    }

    @Test func readsInFlatMemory() throws {
        let records = 200_000  // about 9 MB of JSON
        let reader = JSONReader(WrappedInput(records: records), layout: .document, pointer: try JSONPointer("/products"))
        var read = 0
        var largestWindow = 0
        while try reader.readRaw({ _ throws(FerryError) in read += 1 }) {
            largestWindow = max(largestWindow, reader.window.bytes.count)
        }
        #expect(read == records)
        #expect(largestWindow <= 2 << 20)
    }
}
