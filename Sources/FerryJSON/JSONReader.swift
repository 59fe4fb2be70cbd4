#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// Streams records out of JSON: a top-level array of objects, one object, or
/// JSON Lines (one value per line).
///
/// The reader never holds more than one record's bytes beyond its read chunk:
/// it scans a record in an `InputWindow`, hands it out, and drops its bytes
/// at the next refill.
package final class JSONReader: RecordReader {
    /// The layouts the reader understands.
    package enum Layout: Sendable {
        /// One JSON text (RFC 8259): an array of objects, or one object.
        case document
        /// JSON Lines: one value per line; blank lines are skipped.
        case lines
    }

    enum State {
        case start
        case inArray(first: Bool)
        /// With a pointer (see `JSONReader+Pointer.swift`): at the value of
        /// token `level`, in its container's member `index`, or past the
        /// records' array in the container at `level`.
        case enter(level: Int)
        case seek(level: Int, index: Int)
        case leave(level: Int)
        case lines
        case trailer
        case done
        case failed(FerryError)
    }

    /// What one step of scanning found.
    enum Step {
        case record(FieldList, [Value], start: Int)
        case other
        case end
    }

    let window: InputWindow
    let layout: Layout
    /// Where the array of records is (`--records-at`); nil for the top level.
    let pointer: JSONPointer?
    /// What follows the records' array's `]`, worked out once: made from the
    /// pointer for every record, it cost a reference count and a state's
    /// destruction each (about 3% of validating JSON Lines).
    let afterArray: State
    /// With a pointer, whether each container on the way to the records'
    /// array is an object (else an array), outermost first.
    @exclusivity(unchecked) var containers: [Bool] = []
    private let acceptsAnyValue: Bool
    let maxDepth: Int
    let maxRecordBytes: Int
    /// Whether a JSON Lines line that is not a good record ends that record
    /// only, and reading goes on at the next line.
    let resumesAfterBadRecords: Bool
    /// Whether the error being thrown spoilt one line only.
    var lastErrorResumes = false
    /// In JSON Lines, the window index just past the line being scanned
    /// (its line feed, or the input's end).
    @exclusivity(unchecked) var lineEnd = 0
    /// In JSON Lines, whether the bad line reading resumes after was refused
    /// before its end was in the window: the next read skips the rest of it.
    @exclusivity(unchecked) var skipsRestOfLine = false
    // The reader's state is touched for every record; a reader is never
    // shared between threads, so the run-time exclusivity checks are left out.
    @exclusivity(unchecked) var state = State.start
    @exclusivity(unchecked) var position = 0
    @exclusivity(unchecked) var recordIndex = 0
    @exclusivity(unchecked) var fields: FieldList? {
        didSet {
            if fields !== oldValue { plainNames = fields.map(FieldListCache.hasPlainNames) ?? false }
        }
    }
    @exclusivity(unchecked) var plainNames = false
    @exclusivity(unchecked) var cache = FieldListCache()
    /// Where repeated names are noted; nil for a reader made without one.
    @exclusivity(unchecked) var context: ReadContext?
    /// Where raw records are built, reused from one to the next.
    @exclusivity(unchecked) var rawBuffers = RawRecordBuffers()
    /// Whether raw records say when their line is as the writer writes it
    /// (`ReadContext.notesLinesAsWritten`).
    var notesLinesAsWritten = false

    /// - Parameters:
    ///   - input: the bytes.
    ///   - layout: a JSON document or JSON Lines.
    ///   - limits: nesting depth and record size.
    ///   - acceptsAnyValue: true for `lint`, where values that are not objects
    ///     are well formed; false for conversions, where they are
    ///     `format.notRecords` errors.
    ///   - resumesAfterBadRecords: in JSON Lines, go on at the next line
    ///     after a line that is not a good record.
    ///   - pointer: in a document, where the array of records is; nil for
    ///     the top level.
    package init(
        _ input: any ByteInput, layout: Layout, limits: ReadLimits = ReadLimits(), acceptsAnyValue: Bool = false,
        resumesAfterBadRecords: Bool = false, pointer: JSONPointer? = nil
    ) {
        window = InputWindow(input, limit: limits.maxRecordBytes)
        self.layout = layout
        self.pointer = layout == .document ? pointer : nil
        afterArray = Self.afterArray(self.pointer)
        self.acceptsAnyValue = acceptsAnyValue
        maxDepth = limits.maxDepth
        maxRecordBytes = limits.maxRecordBytes
        self.resumesAfterBadRecords = resumesAfterBadRecords
    }

    /// A reader as the context asks: whether it resumes after a bad line.
    package convenience init(_ input: any ByteInput, layout: Layout, context: ReadContext, pointer: JSONPointer? = nil) {
        self.init(
            input, layout: layout, limits: context.limits, resumesAfterBadRecords: context.resumesAfterBadRecords,
            pointer: pointer)
        self.context = context
        notesLinesAsWritten = context.notesLinesAsWritten
        window.countsLines = context.countsLines
    }

    /// Notes the names repeated in record `record`, whose value starts at
    /// `start` in `bytes`, the window's (`json.duplicateName`), each at its
    /// repeated name.
    func noteDuplicateNames(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, record: Int) {
        guard let context else { return }
        var scanner = JSONScanner(bytes, position: start, isFinal: true, maxDepth: maxDepth)
        for (name, nameStart) in scanner.duplicateNames() {
            context.noteLoss(
                .jsonDuplicateName, field: name, record: record, [.string(name)],
                at: context.reportsEveryLoss ? window.location(of: nameStart) : nil)
        }
    }

    package func location(ofField name: String, inRecordAt byteOffset: Int) -> SourceLocation? {
        let start = byteOffset - window.baseOffset
        guard start >= 0, start < window.count else { return nil }
        // The record's keys are most often the last record's: compared
        // with those as bytes, no key string and no field list is made
        // (parsing without them ran 18,000 instructions a product).
        let (expected, plain) = (fields, plainNames)
        let valueStart = window.bytes.withUnsafeBufferPointer { buffer -> Int? in
            var scanner = JSONScanner(
                UnsafeBufferPointer(rebasing: buffer[0..<window.count]), position: start, isFinal: true,
                maxDepth: maxDepth)
            guard buffer[start] == UInt8(ascii: "{") else { return nil }
            // Most often found by a scan that makes nothing; a record it
            // cannot read is parsed whole, as before.
            var name = name
            let found = name.withUTF8 { wanted in
                Result { () throws(JSONScanError) in try scanner.valueStart(ofField: wanted) }
            }
            if case .success(let start) = found { return start }
            scanner.position = start
            var starts: [Int]? = []
            var cache = FieldListCache()
            guard
                let (fields, _) = try? scanner.parseRecord(
                    depth: 1, expecting: expected, plainNames: plain, cache: &cache, valueStarts: &starts),
                let index = fields.index(of: name), let starts, index < starts.count
            else { return nil }
            return starts[index]
        }
        return valueStart.map { window.location(of: $0) }
    }
    package var resumesAfterError: Bool { lastErrorResumes }

    deinit { rawBuffers.deallocate() }

    package func next() throws(FerryError) -> Record? {
        lastErrorResumes = false
        while true {
            switch try advance() {
            case .record(let fields, let values, let start):
                let origin = RecordOrigin(index: recordIndex - 1, byteOffset: window.baseOffset + start)
                return Record(fields: fields, values: values, origin: origin)
            case .other: continue
            case .end: return nil
            }
        }
    }

    /// Reads to the end, checking well-formedness only.
    package func skipToEnd() throws(FerryError) {
        lastErrorResumes = false
        while true {
            if case .end = try advance() { return }
        }
    }

    package func location(ofByteOffset offset: Int) -> SourceLocation {
        guard offset >= window.baseOffset else { return SourceLocation(file: window.input.name, byteOffset: offset) }
        return window.location(of: offset - window.baseOffset)
    }

    // MARK: - Steps

    func advance() throws(FerryError) -> Step {
        do throws(FerryError) {
            switch state {
            case .start: return try start()
            case .inArray(let first): return try arrayElement(first: first)
            case .enter(let level): return try enter(level: level)
            case .seek(let level, let index): return try seek(level: level, index: index)
            case .leave(let level): return try leave(level: level)
            case .lines: return try line()
            case .trailer: return try trailer()
            case .done: return .end
            case .failed(let error): throw error
            }
        } catch {
            if !lastErrorResumes { state = .failed(error) }
            throw error
        }
    }

    private func start() throws(FerryError) -> Step {
        try window.fill(atLeast: 3)
        if window.count >= 3 && window.bytes[0] == 0xEF && window.bytes[1] == 0xBB && window.bytes[2] == 0xBF {
            position = 3  // a UTF-8 byte order mark, which RFC 8259 lets readers ignore
        }
        if layout == .lines {
            state = .lines
            return .other
        }
        let first = try scan { (scanner) throws(JSONScanError) -> UInt8? in
            scanner.skipWhitespace()
            if scanner.position == scanner.bytes.count {
                if scanner.isFinal { return nil }
                throw .needMore
            }
            return scanner.bytes[scanner.position]
        }
        switch first {
        case nil:
            throw FerryError(.jsonEmpty, [], at: window.location(of: position))
        case _ where pointer != nil:
            state = .enter(level: 0)
            return .other
        case UInt8(ascii: "["):
            position += 1
            state = .inArray(first: true)
            return .other
        case UInt8(ascii: "{"):
            state = .trailer
            return try recordOrValue(depth: 0)
        default:
            state = .trailer
            return try recordOrValue(depth: 0)
        }
    }

    /// The next element of the top-level array, with the comma before it,
    /// in one pass; or the closing bracket.
    private func arrayElement(first: Bool) throws(FerryError) -> Step {
        var closed = false
        let step = try readValue(depth: arrayDepth) { (scanner) throws(JSONScanError) -> Bool in
            let byte = try scanner.peekSignificant()
            if byte == UInt8(ascii: "]") && first {
                scanner.position += 1
                return false
            }
            if !first {
                if byte == UInt8(ascii: "]") {
                    scanner.position += 1
                    return false
                }
                guard byte == UInt8(ascii: ",") else { throw scanner.unexpected(at: scanner.position) }
                scanner.position += 1
            }
            return true
        } after: { _ throws(JSONScanError) in }
        if case .end = step {
            closed = true
        }
        state = closed ? afterArray : .inArray(first: false)
        return closed ? .other : step
    }

    /// One line of JSON Lines, scanned in one pass: blank lines, the value,
    /// and the line break after it.
    ///
    /// A line break always ends a record, as JSON Lines defines it: the
    /// scan never reads past the line's end, so `{"name":"X","price":` is
    /// one bad line, never joined to the next. When the reader resumes,
    /// the next call reads the next line.
    private func line() throws(FerryError) -> Step {
        if skipsRestOfLine {
            try skipPastLineFeed()
            skipsRestOfLine = false
        }
        let step: Step
        do throws(FerryError) {
            step = try readValue(depth: 0, inLine: true) { (scanner) throws(JSONScanError) -> Bool in
                scanner.skipWhitespace()
                if scanner.position < scanner.bytes.count { return true }
                if scanner.isFinal { return false }
                throw .needMore
            } after: { (scanner) throws(JSONScanError) in
                try scanner.skipLineEnd()
            }
        } catch {
            if resumesAfterBadRecords && error.spoilsOneRecord {
                position = max(position, lineEnd)
                recordIndex += 1
                lastErrorResumes = true
            }
            throw error
        }
        if case .end = step { state = .done }
        return step
    }

    /// Moves past the next line feed, or to the input's end, dropping the
    /// bytes before it as it reads, so a long line costs no memory.
    private func skipPastLineFeed() throws(FerryError) {
        while true {
            if let found = window.bytes.withUnsafeBufferPointer({ Self.lineFeed(in: $0, from: position, to: window.count) }) {
                position = found + 1
                return
            }
            position = window.count
            guard let dropped = try window.refill(keepingFrom: position) else { return }
            position -= dropped
        }
    }

    private func trailer() throws(FerryError) -> Step {
        try scan(inRecord: false) { (scanner) throws(JSONScanError) in
            scanner.skipWhitespace()
            if scanner.position < scanner.bytes.count {
                throw .failed(.jsonTrailingData, [.byte(scanner.bytes[scanner.position])], index: scanner.position)
            }
            if !scanner.isFinal { throw .needMore }
        }
        state = .done
        return .end
    }

    /// Reads one value at the position: a record when it is an object, else
    /// a checked value (lint) or a `format.notRecords` error.
    private func recordOrValue(depth: Int) throws(FerryError) -> Step {
        try readValue(depth: depth) { _ throws(JSONScanError) in true } after: { _ throws(JSONScanError) in }
    }

    /// Scans `before`, which says whether a value follows, then the value,
    /// then `after`, all in one pass that restarts from the top on a refill.
    private func readValue(
        depth: Int, inLine: Bool = false, before: (inout JSONScanner) throws(JSONScanError) -> Bool,
        after: (inout JSONScanner) throws(JSONScanError) -> Void
    ) throws(FerryError) -> Step {
        let expected = fields
        let plain = plainNames
        let anyValue = acceptsAnyValue
        // The cache moves into a local for the scan, so the hot loop makes no
        // access to the reader's storage.
        var localCache = FieldListCache()
        swap(&localCache, &cache)
        defer { swap(&localCache, &cache) }
        var duplicates = false
        let step = try scan(inLine: inLine) { (scanner) throws(JSONScanError) -> Step in
            guard try before(&scanner) else { return .end }
            let byte = try scanner.peekSignificant()
            let start = scanner.position
            let step: Step
            if byte == UInt8(ascii: "{") {
                scanner.sawDuplicateName = false
                let (fields, values) = try scanner.parseRecord(
                    depth: depth + 1, expecting: expected, plainNames: plain, cache: &localCache)
                duplicates = scanner.sawDuplicateName
                step = .record(fields, values, start: start)
            } else {
                guard anyValue else {
                    guard scanner.startsValue(byte) else { throw scanner.unexpected(at: start) }
                    throw .failed(.formatNotRecords, [.typeName(scanner.typeNameAtPosition())], index: start)
                }
                _ = try scanner.parseValue(depth: depth)
                step = .other
            }
            try after(&scanner)
            return step
        }
        switch step {
        case .record(let fields, _, let start):
            // The window catches most large records as it grows; this catches
            // the rest exactly, once the record is whole.
            if position - start > maxRecordBytes {
                throw .recordTooLarge(limit: maxRecordBytes, at: recordLocation(of: start))
            }
            if duplicates {
                window.bytes.withUnsafeBufferPointer {
                    noteDuplicateNames(in: UnsafeBufferPointer(rebasing: $0[0..<window.count]), at: start, record: recordIndex)
                }
            }
            self.fields = fields
            recordIndex += 1
        case .other: recordIndex += 1
        case .end: break
        }
        return step
    }

    // MARK: - Scanning with refills

    /// Moves past whitespace, dropping it from the window as it goes, so that
    /// a long run of blanks between values costs no memory. Every place a
    /// scan starts allows whitespace.
    func skipWhitespace() throws(FerryError) {
        while true {
            let stopped = window.bytes.withUnsafeBufferPointer { buffer -> Bool in
                var index = position
                let end = window.count
                while index < end {
                    switch buffer[index] {
                    case 0x20, 0x0A, 0x0D, 0x09: index += 1
                    default:
                        position = index
                        return true
                    }
                }
                position = index
                return false
            }
            if stopped || window.isAtEnd { return }
            guard let dropped = try window.refill(keepingFrom: position) else { return }
            position -= dropped
        }
    }

    /// Runs `body` on a scanner over the window from the current position.
    /// When the scanner runs out of bytes, refills the window and runs `body`
    /// again from the same place; on success, moves the position on.
    ///
    /// With `inLine`, the scanner sees the bytes up to the next line feed
    /// only (`lineEnd`), as final: a value cut off by the line break is an
    /// error at the line's end.
    func scan<Result>(
        inRecord: Bool = true, inLine: Bool = false, _ body: (inout JSONScanner) throws(JSONScanError) -> Result
    ) throws(FerryError) -> Result {
        try skipWhitespace()
        while true {
            var end = window.count
            var isFinal = window.isAtEnd
            var endsWithLineFeed = false
            // The bytes up to a NUL of a line longer than the window, scanned
            // to find the line's first error before it is buffered whole.
            var upToNul = false
            if inLine {
                if let found = window.bytes.withUnsafeBufferPointer({ Self.lineFeed(in: $0, from: position, to: end) }) {
                    end = found + 1
                    isFinal = true
                    endsWithLineFeed = true
                } else if !window.isAtEnd {
                    // A line longer than the window: one that cannot start a
                    // value (NULs of UTF-16 or a binary file) is refused at
                    // its first byte, not once it is buffered whole.
                    try refuseUnstartableLine()
                    // Nor is one that holds a NUL, which no JSON text holds
                    // (a string holds it escaped): the scan fails at that
                    // NUL at the latest, as it would on the whole line.
                    guard let nul = window.bytes.withUnsafeBufferPointer({ Self.nulByte(in: $0, from: position, to: end) })
                    else {
                        if let dropped = try window.refillForRescan(keepingFrom: position) { position -= dropped }
                        continue
                    }
                    end = nul + 1
                    upToNul = true
                }
                lineEnd = end
            }
            let outcome = window.bytes.withUnsafeBufferPointer { buffer -> Swift.Result<Result, JSONScanError> in
                var scanner = JSONScanner(
                    UnsafeBufferPointer(rebasing: buffer[0..<end]), position: position,
                    isFinal: isFinal, maxDepth: maxDepth)
                do throws(JSONScanError) {
                    let result = try body(&scanner)
                    // No scan gets past a NUL; if one did, the line is read whole.
                    if upToNul { return .failure(.needMore) }
                    position = scanner.position
                    return .success(result)
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(let result):
                return result
            case .failure(.needMore):
                if let dropped = try window.refillForRescan(keepingFrom: position) { position -= dropped }
            case .failure(.failed(let code, let arguments, let index)):
                // The rest of a line cut at its NUL is dropped as it is read.
                if upToNul { skipsRestOfLine = resumesAfterBadRecords }
                // Cut off by its line's end: at the line feed, not past it.
                let at = endsWithLineFeed ? min(index, end - 1) : index
                throw FerryError(code, arguments, at: inRecord ? recordLocation(of: at) : window.location(of: at))
            }
        }
    }

    /// Throws when the unfinished line at the position starts with a byte
    /// no JSON value starts with; reading resumes after the whole line.
    private func refuseUnstartableLine() throws(FerryError) {
        let refusal = window.bytes.withUnsafeBufferPointer { buffer -> JSONScanError? in
            guard position < window.count else { return nil }
            let scanner = JSONScanner(
                UnsafeBufferPointer(rebasing: buffer[0..<window.count]), position: position, isFinal: false,
                maxDepth: maxDepth)
            return scanner.startsValue(buffer[position]) ? nil : scanner.unexpected(at: position)
        }
        guard case .failed(let code, let arguments, let index)? = refusal else { return }
        lineEnd = position
        skipsRestOfLine = resumesAfterBadRecords
        throw FerryError(code, arguments, at: recordLocation(of: index))
    }

    /// The index of the first line feed in `buffer[from..<to]`, if any.
    static func lineFeed(in buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        firstIndex(of: 0x0A, in: buffer, from: from, to: to)
    }

    /// The index of the first NUL byte in `buffer[from..<to]`, if any.
    static func nulByte(in buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        firstIndex(of: 0, in: buffer, from: from, to: to)
    }

    private static func firstIndex(of byte: Int32, in buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let base = buffer.baseAddress,
            let found = memchr(base + from, byte, to - from)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// Where byte `index` of the window is, in the record being read.
    func recordLocation(of index: Int) -> SourceLocation {
        var location = window.location(of: index)
        location.record = recordIndex
        return location
    }
}
