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
// array is asked for, a large file is cut into as many parts as `jobs`
// says, where validate cuts it (`PartPlan`), and the parts are read and
// decoded at once, each on the next free core:
//
//     file:  name,price\n Wii,269\n … \n | Xbox 360,299\n … \n | …
//     part 1: read, checked, decoded on this thread               ─┐
//     part 2: the header row, then its bytes, on another thread    ─┼▶ part 1 + part 2 + …
//     part N: …                                                    ─┘
//
// Any failure in any part (a bad record, a cut inside a quoted field)
// drops them all, and the file is decoded in one pass, which locates the
// first error at its line and column as it always does. So the parts change
// how fast a file decodes, never what it decodes to or what error it throws.

extension FerryDecoder {
    /// Every record of the file at `url`, as `T`s; a large CSV, TSV or
    /// JSON Lines file is decoded in parts at once, one per core (see the
    /// design note), whose values are the same as one pass gives.
    /// - Throws: the first error, reading or decoding.
    public func decode<T: Decodable & Sendable>(_ type: [T].Type, from url: URL) throws(FerryError) -> [T] {
        if jobs > 1, let values = DecodingParts(self, path: url.ferryPath)?.decode(T.self) {
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

/// A file cut in parts to be decoded at once (see the design note).
struct DecodingParts {
    private let decoder: FerryDecoder
    let plan: PartPlan
    private let codec: any Codec

    /// Nil when the file is decoded in one pass: small, compressed, a
    /// format whose records do not split at line ends, one job, or a file
    /// it cannot cut.
    init?(_ decoder: FerryDecoder, path: String) {
        guard let opened = try? OpenedInput(path: path, limits: decoder.limits),
            (opened.input.sizeHint ?? 0) >= decoder.partsThreshold,
            let registry = try? decoder.configuredRegistry(),
            let codec = try? FormatResolver(registry: registry).inputCodec(
                path: opened.formatPath, prefix: opened.prefix, from: decoder.format?.rawValue),
            let source = PartSource.rows(path: path, codec: codec, opened: opened, codecOptions: OptionValues()),
            let plan = PartPlan(source, threshold: decoder.partsThreshold, jobs: decoder.jobs, parts: decoder.jobs)
        else { return nil }
        var settled = decoder
        if settled.kind == nil && settled.validates {
            // Every part checks its records as one kind: the first record's.
            guard let reading = try? RecordReading(opened: opened, path: path, decoder: decoder, codec: codec),
                let kind = reading.firstKind()
            else { return nil }
            settled.kind = kind
        }
        self.decoder = settled
        self.plan = plan
        self.codec = codec
    }

    /// Every part's values, in order; nil when any failed.
    func decode<T: Decodable & Sendable>(_ type: T.Type) -> [T]? {
        let parts = plan.ranges.enumerated().map { index, range in
            PartDecoding<T>(self, range: range, prefix: index == 0 ? [] : plan.prefix)
        }
        // No more threads than cores: a part waits for a core, not a core for a part.
        LargeStackThread.each(parts.count, threads: min(decoder.jobs, Cores.usable)) { parts[$0].run() }
        var values: [T] = []
        for part in parts {
            guard let partValues = part.values else { return nil }
            values += partValues
        }
        return values
    }

    /// One part, read, checked and decoded on the thread that runs it;
    /// only that thread touches it until it is done.
    private final class PartDecoding<T: Decodable & Sendable>: @unchecked Sendable {
        private let parts: DecodingParts
        private let range: Range<Int>
        private let prefix: [UInt8]
        /// The part's values; nil when anything failed.
        private(set) var values: [T]?

        init(_ parts: DecodingParts, range: Range<Int>, prefix: [UInt8]) {
            self.parts = parts
            self.range = range
            self.prefix = prefix
        }

        func run() {
            let decoder = parts.decoder
            let path = parts.plan.path
            let rules = DecodingRules(photoFolder: OutputFile.directory(of: path), limits: decoder.limits)
            var batch = RecordStream.Batch(tape: RecordTape(capacity: RecordStream.tapeBytes * 2))
            var cells = RawCellBuffer()
            defer { cells.deallocate() }
            var decoded: [T] = []
            do throws(FerryError) {
                let input = FileRangeInput(parts.plan.file, range: range, prefix: prefix)
                let reading = try RecordReading(
                    opened: try OpenedInput(input, path: path, limits: decoder.limits), path: path, decoder: decoder,
                    codec: parts.codec, part: parts.plan.codecOptions)
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
