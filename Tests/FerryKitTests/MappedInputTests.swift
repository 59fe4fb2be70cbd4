import FerryTestSupport
import Foundation
import Synchronization
import Testing

@testable import FerryKit

/// Large inputs read whole are mapped (`FileMapping`); one that shrinks
/// while it is read must end in `io.inputChanged`, never in a crash.
@Suite struct MappedInputTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    /// An archive of `count` products with photos, a few megabytes.
    func archive(_ name: String, count: Int) throws -> String {
        let photo: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<48).map { UInt8($0) }
        let output = MemoryOutput()
        let writer = try ArchiveCodec().makeWriter(output, context: WriteContext(kind: .product))
        for index in 0..<count {
            try writer.write(
                Record([
                    ("name", .string("Product \(index)")), ("price", .double(Double(index) + 0.99)),
                    ("photo", .bytes(photo + [UInt8(truncatingIfNeeded: index)])),
                ]))
        }
        try writer.finish()
        #expect(output.bytes.count > 2 << 20)
        return try scratch.write(name, output.bytes)
    }

    @Test func anArchiveThatShrinksUnderItsReaderIsReported() throws {
        let path = try archive("Products", count: 30_000)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let input = PeekableInput(CountingInput(try FileInput(path: path)))
        _ = try input.peek(64)
        let reader = try ArchiveCodec().makeReader(input, context: ReadContext())
        #expect(try reader.next()?["name"] == .string("Product 0"))
        #expect(truncate(path, off_t(size / 4)) == 0)
        var failure: FerryError?
        do throws(FerryError) {
            while try reader.next() != nil {}
        } catch {
            failure = error
        }
        // The objects past the new end read as zeros: a record fails.
        let error = try #require(failure)
        #expect(input.unlessChanged(error).code == .ioInputChanged)
        #expect(throws: FerryError.self) { try input.checkIntact() }
    }

    /// What `ferry lint` and `ferry inspect` read through: an input that
    /// shrinks under the reading ends in `io.inputChanged`, whether the
    /// reading failed or not.
    @Test func readingAnInputThatShrinksEndsInInputChanged() throws {
        let path = try archive("Products", count: 30_000)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        do throws(FerryError) {
            _ = try OpenedInput.reading(path, limits: ReadLimits()) { (opened) throws(FerryError) -> Int in
                let reader = try ArchiveCodec().makeReader(opened.input, context: ReadContext())
                #expect(truncate(path, off_t(size / 4)) == 0)
                var records = 0
                while try reader.next() != nil { records += 1 }
                return records
            }
            Issue.record("the reading ended without an error")
        } catch {
            #expect(error.code == .ioInputChanged)
        }
    }

    /// The conversion notices too, whichever path reads (raw records or
    /// not), and writes nothing.
    @Test(arguments: [true, false])
    func aConversionWhoseInputShrinksFailsAndWritesNothing(raw: Bool) throws {
        let path = try archive("Products", count: 60_000)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        var converter = Converter()
        // The first batch is written before the reading thread is more than
        // a few batches ahead; the file then loses its last three quarters.
        let truncated = Mutex(false)
        converter.progress = { _, _ in
            truncated.withLock { done in
                if !done { done = truncate(path, off_t(size / 4)) == 0 }
            }
        }
        var options = ConversionOptions()
        options.rawRecords = raw
        let output = scratch.path("products.json")
        do throws(FerryError) {
            _ = try converter.convert(path, to: output, options: options)
            Issue.record("the conversion ended without an error")
        } catch {
            #expect(error.code == .ioInputChanged)
            #expect(error.arguments == [.path(path)])
        }
        #expect(truncated.withLock { $0 })
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try scratch.contents() == ["Products"])
    }
}
