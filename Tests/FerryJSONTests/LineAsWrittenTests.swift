import FerryJSON
import FerryKit
import Testing

/// The JSON reader says which JSON Lines lines are, byte for byte, what the
/// JSON Lines writer writes for their records (`RawRecord.lineAsWritten`),
/// or are once the whitespace between their tokens is dropped
/// (`lineIsSpaced`, `JSONText.Compactor`), and the writer agrees on every
/// line it says so of.
@Suite struct LineAsWrittenTests {
    @Test func theReaderAndTheWriterAgree() throws {
        let lines = [
            #"{"name":"Wii","price":269.0,"sku":"A"}"#,
            #"{"name":"Wii","price":269.0,"sku":"B"}"#,
            #"{"name":"Quote \" in","price":1.5,"sku":"C"}"#,
            #"{"name":"Back \\ and\nline","price":2,"sku":"D"}"#,
            #"{"name":"Café ☕","price":true,"sku":null}"#,
            #"{"name":"Slash \/","price":1.5,"sku":"E"}"#,
            #"{"name":"Letter \u0041","price":1.5,"sku":"F"}"#,
            #"{"name":"Spaced", "price":1.5,"sku":"G"}"#,
            #"{"name":"Text number","price":1.50,"sku":"H"}"#,
            #"{"name":"Nested","price":[1,2],"sku":"I"}"#,
            #"{"name":"CRLF","price":1.5,"sku":"J"}"# + "\r",
            #"{"name":"Last","price":1.5,"sku":"K"}"#,
            #"{"name": "Spaced \", \" text","# + "\t" + #""price": 1.5, "sku": "L"}  "#,
        ]
        // The first record of a reader is never read in place.
        let asWritten = [false, true, true, true, true, false, false, true, false, false, true, true, true]
        let spaced = [7, 10, 12]
        let text = lines.joined(separator: "\n") + "\n"
        let context = ReadContext()
        context.notesLinesAsWritten = true
        let reader = JSONReader(MemoryInput(text), layout: .lines, context: context)
        var seen: [Bool] = []
        var seenSpaced: [Int] = []
        while try reader.readRaw({ (record) throws(FerryError) in
            let line = Array((lines[seen.count] + "\n").utf8)
            seen.append(record.lineAsWritten > 0)
            guard record.lineAsWritten > 0 else { return }
            let output = MemoryOutput()
            let writer = JSONWriter(output, style: .lines)
            try writer.writeRaw(record)
            try writer.finish()
            #expect(record.lineAsWritten == line.count)
            guard record.lineIsSpaced else {
                #expect(output.bytes == line)
                return
            }
            seenSpaced.append(seen.count - 1)
            var compacted = [UInt8](repeating: 0, count: line.count)
            var compactor = JSONText.Compactor()
            let kept = line.withUnsafeBytes { bytes in
                compacted.withUnsafeMutableBytes { compactor.compact(bytes, into: $0.baseAddress.unsafelyUnwrapped) }
            }
            #expect(Array(compacted[0..<kept]) == output.bytes)
        }) {}
        #expect(seen == asWritten)
        #expect(seenSpaced == spaced)
        // Off unless asked: a conversion pays for no check.
        let plain = JSONReader(MemoryInput(text), layout: .lines, context: ReadContext())
        var any = false
        while try plain.readRaw({ (record) throws(FerryError) in any = any || record.lineAsWritten > 0 }) {}
        #expect(!any)
    }
}
