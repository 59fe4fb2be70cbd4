import FerryJSON
import FerryKit
import Testing

/// The JSON reader says which JSON Lines lines are, byte for byte, what the
/// JSON Lines writer writes for their records (`RawRecord.lineAsWritten`),
/// and the writer agrees on every line it says so of.
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
        ]
        // The first record of a reader is never read in place.
        let asWritten = [false, true, true, true, true, false, false, false, false, false, false, true]
        let text = lines.joined(separator: "\n") + "\n"
        let context = ReadContext()
        context.notesLinesAsWritten = true
        let reader = JSONReader(MemoryInput(text), layout: .lines, context: context)
        var seen: [Bool] = []
        while try reader.readRaw({ (record) throws(FerryError) in
            seen.append(record.lineAsWritten > 0)
            guard record.lineAsWritten > 0 else { return }
            let output = MemoryOutput()
            let writer = JSONWriter(output, style: .lines)
            try writer.writeRaw(record)
            try writer.finish()
            #expect(record.lineAsWritten == output.bytes.count)
            #expect(output.text == lines[seen.count - 1] + "\n")
        }) {}
        #expect(seen == asWritten)
        // Off unless asked: a conversion pays for no check.
        let plain = JSONReader(MemoryInput(text), layout: .lines, context: ReadContext())
        var any = false
        while try plain.readRaw({ (record) throws(FerryError) in any = any || record.lineAsWritten > 0 }) {}
        #expect(!any)
    }
}
