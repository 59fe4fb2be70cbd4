import FerryJSON
import FerryKit
import Testing

/// A JSON Lines line whose first byte cannot start JSON (NULs from UTF-16
/// or a binary file) is refused at that byte, before its line is buffered.
@Suite struct BinaryLineTests {
    /// `head`, then `count` NUL bytes, then `tail`, handed out without
    /// ever being held whole; counts what was read.
    final class ZerosInput: ByteInput {
        let name = "zeros.jsonl"
        let sizeHint: Int? = nil
        private let count: Int
        private let head: [UInt8]
        private let tail: [UInt8]
        private(set) var delivered = 0

        init(head: String = "", count: Int, tail: String = "") {
            self.head = Array(head.utf8)
            self.count = count
            self.tail = Array(tail.utf8)
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
            var written = 0
            while written < buffer.count && delivered < head.count {
                buffer[written] = head[delivered]
                written += 1
                delivered += 1
            }
            let zeros = min(buffer.count - written, max(head.count + count - delivered, 0))
            if let base = buffer.baseAddress {
                (base + written).initializeMemory(as: UInt8.self, repeating: 0, count: zeros)
            }
            written += zeros
            delivered += zeros
            while written < buffer.count && delivered < head.count + count + tail.count {
                buffer[written] = tail[delivered - head.count - count]
                written += 1
                delivered += 1
            }
            return written
        }
    }

    static let hundredMegabytes = 100 << 20

    @Test func nulLineIsRefusedAtItsFirstByte() throws {
        let input = ZerosInput(count: Self.hundredMegabytes)
        let reader = JSONReader(input, layout: .lines)
        let error = try #require(throws: FerryError.self) { try reader.next() }
        #expect(error.code == .jsonNullByte)
        #expect(error.arguments.isEmpty)
        #expect(error.location.file == "zeros.jsonl")
        #expect(error.place == [1, 1])
        #expect(error.location.byteOffset == 0)
        #expect(error.location.record == 0)
        // One chunk at most was read: the line was never buffered.
        #expect(input.delivered <= 1 << 20)
        #expect(throws: error) { try reader.next() }
    }

    @Test func rawReadingRefusesTheSameWay() throws {
        let input = ZerosInput(count: Self.hundredMegabytes)
        let reader = JSONReader(input, layout: .lines)
        let error = try #require(throws: FerryError.self) {
            while try reader.readRaw({ _ throws(FerryError) in }) {}
        }
        #expect(error.code == .jsonNullByte)
        #expect(error.place == [1, 1])
        #expect(input.delivered <= 1 << 20)
    }

    /// Another byte that cannot start JSON is refused at once too, rather
    /// than once its line outgrows the record limit.
    @Test func otherBadFirstByteIsRefusedAtOnce() throws {
        let bytes = Array("{\"a\":1}\n".utf8) + [UInt8(ascii: "x")] + [UInt8](repeating: 0x41, count: 3 << 20)
        let input = MemoryInput(bytes, readSizes: { 1 << 16 })
        var limits = ReadLimits()
        limits.maxRecordBytes = 1 << 20
        let reader = JSONReader(input, layout: .lines, limits: limits)
        #expect(try reader.next()?["a"] == .integer(1))
        let error = try #require(throws: FerryError.self) { try reader.next() }
        #expect(error.code == .jsonUnexpectedCharacter)
        #expect(error.arguments == [.byte(UInt8(ascii: "x"))])
        #expect(error.place == [2, 1])
    }

    /// Validation reports the line and goes on at the next one, still in
    /// flat memory: the rest of the bad line is dropped as it is read.
    @Test func validationResumesAfterTheWholeLine() throws {
        let input = ZerosInput(count: Self.hundredMegabytes, tail: "\n{\"a\":2}\n")
        let reader = JSONReader(input, layout: .lines, resumesAfterBadRecords: true)
        let error = try #require(throws: FerryError.self) { try reader.next() }
        #expect(error.code == .jsonNullByte)
        #expect(reader.resumesAfterError)
        let record = try #require(try reader.next())
        #expect(record["a"] == .integer(2))
        #expect(record.origin.index == 1)
        #expect(reader.location(ofByteOffset: record.origin.byteOffset).line == 2)
        #expect(try reader.next() == nil)
    }

    /// In a JSON document too, a NUL where a value should start suggests
    /// UTF-16 or a binary file.
    @Test func nulInADocumentIsTheSameCode() throws {
        let error = try #require(JSONTest.readError([0x5B, 0x00, 0x7B, 0x00]))
        #expect(error.code == .jsonNullByte)
        #expect(error.place == [1, 2])
    }

    /// A line that starts as JSON and goes on in NUL bytes (a record cut
    /// short by a disk full of zeros) is refused at its first NUL, where
    /// a scan of the whole line would refuse it, without buffering the line.
    @Test(arguments: [
        ("{", 2, FerryError.Code.jsonNullByte), ("{\"name\": \"Wii", 14, .jsonControlCharacter),
        ("{\"a\": [1, 2", 12, .jsonNullByte),
    ])
    func nulAfterTheStartOfALineIsRefusedAtIt(start: String, column: Int, code: FerryError.Code) throws {
        let first = "{\"a\":1}\n"
        let input = ZerosInput(head: first + start, count: Self.hundredMegabytes, tail: "\n{\"a\":2}\n")
        let reader = JSONReader(input, layout: .lines, resumesAfterBadRecords: true)
        #expect(try reader.next()?["a"] == .integer(1))
        let error = try #require(throws: FerryError.self) { try reader.next() }
        #expect(error.code == code)
        #expect(error.place == [2, column])
        #expect(error.location.byteOffset == first.utf8.count + column - 1)
        #expect(error.location.record == 1)
        #expect(input.delivered <= 1 << 20)
        // Validation goes on at the next line.
        let record = try #require(try reader.next())
        #expect(record["a"] == .integer(2))
        #expect(record.origin.index == 2)
    }

    @Test func rawReadingRefusesANulAfterTheStartTheSameWay() throws {
        let input = ZerosInput(head: "{\"a\":1}\n{\"a\":", count: Self.hundredMegabytes)
        let reader = JSONReader(input, layout: .lines)
        var records = 0
        let error = try #require(throws: FerryError.self) {
            while try reader.readRaw({ _ throws(FerryError) in records += 1 }) {}
        }
        #expect(records == 1)
        #expect(error.code == .jsonNullByte)
        #expect(error.place == [2, 6])
        #expect(input.delivered <= 1 << 20)
    }
}
