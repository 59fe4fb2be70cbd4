import FerryJSON
import FerryKit
import Testing

// MARK: - Inputs

/// An input that hands out 1 to 7 bytes per read, chosen by a seeded
/// generator, so refills land anywhere inside tokens.
func trickleInput(_ bytes: [UInt8], seed: UInt64, name: String = "-") -> MemoryInput {
    var state = seed | 1
    return MemoryInput(bytes, name: name) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 61) % 7 + 1
    }
}

// MARK: - Reading and writing

enum JSONTest {
    static func limits(maxDepth: Int) -> ReadLimits {
        var limits = ReadLimits()
        limits.maxDepth = maxDepth
        return limits
    }

    /// Every record of `input`.
    static func records(
        _ input: any ByteInput, layout: JSONReader.Layout, limits: ReadLimits = ReadLimits()
    ) throws(FerryError) -> [Record] {
        let reader = JSONReader(input, layout: layout, limits: limits)
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    static func records(_ text: String, layout: JSONReader.Layout = .document) throws(FerryError) -> [Record] {
        try records(MemoryInput(text), layout: layout)
    }

    /// The error reading `bytes` ends with, or nil when it reads cleanly.
    static func readError(
        _ bytes: [UInt8], layout: JSONReader.Layout = .document, limits: ReadLimits = ReadLimits(),
        chunkSeed: UInt64? = nil
    ) -> FerryError? {
        let input: any ByteInput = chunkSeed.map { trickleInput(bytes, seed: $0) } ?? MemoryInput(bytes)
        do throws(FerryError) {
            _ = try records(input, layout: layout, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func readError(_ text: String, layout: JSONReader.Layout = .document) -> FerryError? {
        readError(Array(text.utf8), layout: layout)
    }

    /// The error linting `text` ends with, or nil when it is well formed.
    static func lintError(_ text: String, codec: any Codec = JSONCodec()) -> FerryError? {
        do throws(FerryError) {
            try codec.lint(MemoryInput(text), context: ReadContext())
            return nil
        } catch {
            return error
        }
    }

    static func write(_ records: [Record], style: JSONWriter.Style) throws(FerryError) -> [UInt8] {
        let output = MemoryOutput()
        let writer = JSONWriter(output, style: style)
        for record in records { try writer.write(record) }
        try writer.finish()
        return output.bytes
    }

    /// Encodes `records`, compares the bytes with `golden`, decodes them and
    /// compares the records (Yams' `_testRoundTrip`).
    static func roundTrip(
        _ records: [Record], style: JSONWriter.Style, golden: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let bytes = try write(records, style: style)
        #expect(String(decoding: bytes, as: UTF8.self) == golden, sourceLocation: sourceLocation)
        #expect(bytes == Array(golden.utf8), sourceLocation: sourceLocation)
        let decoded = try Self.records(MemoryInput(bytes), layout: style == .lines ? .lines : .document)
        #expect(decoded == records, sourceLocation: sourceLocation)
        for (read, original) in zip(decoded, records) {
            #expect(read.fields.names == original.fields.names, sourceLocation: sourceLocation)
        }
    }
}

extension FerryError {
    /// Line and column, for compact expectations.
    var place: [Int?] { [location.line, location.column] }
}
