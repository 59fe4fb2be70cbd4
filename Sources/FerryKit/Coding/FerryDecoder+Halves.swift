#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Design
//
// `records(of:from:)` reads on a second thread and decodes on the caller's,
// which must: its type need not be `Sendable`. That leaves the decoding,
// the longer half, on one core. When the type is `Sendable` and the whole
// array is asked for, both halves of a large file are read and decoded at
// once, one per core, cut where validate cuts it (`PartPlan`):
//
//     file:  name,price\n Wii,269\n … \n | Xbox 360,299\n … \n
//     first half:  read, checked, decoded on this thread     ─┐
//     second half: the header row, then its bytes, on another ─┴▶ first + second
//
// Any failure in either half (a bad record, a cut inside a quoted field)
// drops both, and the file is decoded in one pass, which locates the first
// error at its line and column as it always does. So the halves change
// how fast a file decodes, never what it decodes to or what error it throws.

extension FerryDecoder {
    /// Every record of the file at `url`, as `T`s; a large CSV, TSV or
    /// JSON Lines file is decoded in two halves at once (see the design
    /// note), whose values are the same as one pass gives.
    /// - Throws: the first error, reading or decoding.
    public func decode<T: Decodable & Sendable>(_ type: [T].Type, from url: URL) throws(FerryError) -> [T] {
        if Cores.usable > 1, let values = DecodingHalves(self, path: url.ferryPath)?.decode(T.self) {
            return values
        }
        return try decodeInOnePass(type, from: url)
    }

    /// Every record of the file at `url` as `T`s, read on one thread and
    /// decoded on the caller's.
    func decodeInOnePass<T: Decodable>(_ type: [T].Type, from url: URL) throws(FerryError) -> [T] {
        var values: [T] = []
        for result in try records(of: T.self, from: url) { values.append(try result.get()) }
        return values
    }
}

/// A file cut in two halves to be decoded at once (see the design note).
struct DecodingHalves {
    private let decoder: FerryDecoder
    private let halves: PartPlan
    private let codec: any Codec

    /// Nil when the file is decoded in one pass: small, compressed, a
    /// format whose records do not split at line ends, or one it cannot
    /// cut.
    init?(_ decoder: FerryDecoder, path: String) {
        guard let opened = try? OpenedInput(path: path, limits: decoder.limits),
            (opened.input.sizeHint ?? 0) >= decoder.halvesThreshold,
            let registry = try? decoder.configuredRegistry(),
            let codec = try? FormatResolver(registry: registry).inputCodec(
                path: opened.formatPath, prefix: opened.prefix, from: decoder.format?.rawValue),
            let source = PartSource.rows(path: path, codec: codec, opened: opened, codecOptions: OptionValues()),
            let halves = PartPlan(source, threshold: decoder.halvesThreshold, jobs: 2)
        else { return nil }
        var settled = decoder
        if settled.kind == nil && settled.validates {
            // Both halves check their records as one kind: the first record's.
            guard let reading = try? RecordReading(opened: opened, path: path, decoder: decoder, codec: codec),
                let kind = reading.firstKind()
            else { return nil }
            settled.kind = kind
        }
        self.decoder = settled
        self.halves = halves
        self.codec = codec
    }

    /// Both halves' values, in order; nil when either failed.
    func decode<T: Decodable & Sendable>(_ type: T.Type) -> [T]? {
        let first = HalfDecoding<T>(self, range: 0..<halves.split, prefix: [])
        let second = HalfDecoding<T>(self, range: halves.split..<halves.file.size, prefix: halves.prefix)
        LargeStackThread.both({ first.run() }, { second.run() })
        guard let firstValues = first.values, let secondValues = second.values else { return nil }
        return firstValues + secondValues
    }

    /// One half, read, checked and decoded on the thread that runs it;
    /// only that thread touches it until it is done.
    private final class HalfDecoding<T: Decodable & Sendable>: @unchecked Sendable {
        private let halves: DecodingHalves
        private let range: Range<Int>
        private let prefix: [UInt8]
        /// The half's values; nil when anything failed.
        private(set) var values: [T]?

        init(_ halves: DecodingHalves, range: Range<Int>, prefix: [UInt8]) {
            self.halves = halves
            self.range = range
            self.prefix = prefix
        }

        func run() {
            let decoder = halves.decoder
            let path = halves.halves.path
            let rules = DecodingRules(photoFolder: OutputFile.directory(of: path), limits: decoder.limits)
            var batch = RecordStream.Batch(tape: RecordTape(capacity: RecordStream.tapeBytes * 2))
            var cells = RawCellBuffer()
            defer { cells.deallocate() }
            var decoded: [T] = []
            do throws(FerryError) {
                let input = FileRangeInput(halves.halves.file, range: range, prefix: prefix)
                let reading = try RecordReading(
                    opened: try OpenedInput(input, path: path, limits: decoder.limits), path: path, decoder: decoder,
                    codec: halves.codec, part: halves.halves.codecOptions)
                var more = true
                while more {
                    batch.reset()
                    more = reading.read(into: &batch)
                    for item in batch.items {
                        guard case .taped(let offset) = item else { return }
                        decoded.append(
                            try batch.tape.withRecord(at: offset, cells: &cells) { (record) throws(FerryError) in
                                try RecordDecoder.decode(T.self, from: record, rules: rules)
                            })
                    }
                }
            } catch {
                return
            }
            values = decoded
        }
    }
}
