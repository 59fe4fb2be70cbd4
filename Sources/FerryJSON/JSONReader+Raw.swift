import FerryCore

// Raw records (see `RawRecord`): inside a top-level array or JSON Lines, the
// reader scans as many records as its window holds in one pass and hands each
// out in place. Records whose keys differ from the previous record's are
// parsed as `Record`s and handed out as `.value` cells; anything that is not
// a record goes through `next()`'s steps, which report it.

extension JSONReader: RawRecordReader {
    package func readRaw(_ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool {
        lastErrorResumes = false
        switch state {
        case .lines, .inArray:
            do throws(FerryError) {
                if try readRawBatch(body) > 0 { return true }
            } catch {
                if case .lines = state, resumesAfterBadRecords, error.spoilsOneRecord, lineEnd > position {
                    // One bad line: the next call reads the line after it.
                    position = lineEnd
                    recordIndex += 1
                    lastErrorResumes = true
                } else {
                    state = .failed(error)
                }
                throw error
            }
        default:
            break
        }
        switch try advance() {
        case .record(let fields, let values, let start):
            let origin = RecordOrigin(index: recordIndex - 1, byteOffset: window.baseOffset + start)
            try RawRecord.with(Record(fields: fields, values: values, origin: origin), body)
            return true
        case .other: return true
        case .end: return false
        }
    }

    /// Hands out the records that follow in the window, up to a few thousand.
    /// - Returns: how many; 0 when the next thing is not a record, or the end.
    private func readRawBatch(_ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Int {
        try skipWhitespace()
        // The buffers move into locals for the loop, and back after it.
        var buffers = RawRecordBuffers()
        swap(&buffers, &rawBuffers)
        defer { swap(&buffers, &rawBuffers) }
        var failure: FerryError?
        while true {
            let outcome = window.bytes.withUnsafeBufferPointer { buffer -> Swift.Result<Int, JSONScanError> in
                var scanner = JSONScanner(
                    UnsafeBufferPointer(rebasing: buffer[0..<window.count]), position: position,
                    isFinal: window.isAtEnd, maxDepth: maxDepth)
                var handled = 0
                // The list the records are expected to have: `fields`, which
                // keeps it alive. Held here unmanaged, it is matched and
                // handed out with no reference counted a record (two retains
                // and releases a record were a tenth of a spaced merge's
                // time).
                var expected = fields.map(Unmanaged.passUnretained)
                var expectedAddress = fields.map(RawRecord.address(of:))
                do throws(JSONScanError) {
                    while handled < 4096 {
                        guard try scanner.startRawElement(&state, after: afterArray) else {
                            position = scanner.position  // past the closing bracket, or at the end
                            break
                        }
                        let start = scanner.position
                        guard scanner.bytes[start] == UInt8(ascii: "{") else { break }
                        // A JSON Lines record ends at its line's end: it is
                        // scanned as if the bytes ended there.
                        var record = scanner
                        var lineEnd = scanner.bytes.count
                        var endsWithLineFeed = false
                        if layout == .lines {
                            if let found = Self.lineFeed(in: buffer, from: start, to: window.count) {
                                lineEnd = found + 1
                                endsWithLineFeed = true
                            } else if !window.isAtEnd {
                                // A line that holds a NUL goes through `next()`'s
                                // steps, which refuse it at the NUL unbuffered.
                                if Self.nulByte(in: buffer, from: start, to: window.count) != nil { break }
                                throw .needMore
                            }
                            record = JSONScanner(
                                UnsafeBufferPointer(rebasing: buffer[0..<lineEnd]), position: start, isFinal: true,
                                maxDepth: maxDepth)
                            record.checksEscapes = notesLinesAsWritten
                        }
                        // Set when the record's list is not `expected`.
                        var otherFields: FieldList?
                        let depth = layout == .lines ? 1 : arrayDepth + 1
                        var lineAsWritten = 0
                        var lineIsSpaced = false
                        do throws(JSONScanError) {
                            var inPlace = false
                            if let expected, plainNames,
                                try expected._withUnsafeGuaranteedRef({ expected in
                                    Result { () throws(JSONScanError) in
                                        try record.parseRawRecord(depth: depth, expecting: expected, into: &buffers)
                                    }
                                }).get()
                            {
                                inPlace = true
                            } else {
                                let known = expected?.takeUnretainedValue()
                                let parsed = try record.parseRecord(
                                    depth: depth, expecting: known, plainNames: plainNames, cache: &cache)
                                if parsed.0 !== known { otherFields = parsed.0 }
                                buffers.removeAll()
                                for value in parsed.1 { buffers.append(other: value) }
                            }
                            if layout == .lines {
                                let end = record.position
                                try record.skipLineEnd()
                                // A line that ends with its line feed (not
                                // with the input, nor with a lone CR), whose
                                // values are written as read: with no
                                // whitespace between its tokens, it is the
                                // writer's line; else, once that is dropped.
                                if notesLinesAsWritten && inPlace && record.position > end
                                    && record.bytes[record.position - 1] == 0x0A
                                    && !record.escapedOtherwise
                                    && Self.writesAsRead(
                                        buffers.cells.cells, hasOthers: !buffers.others.isEmpty, others: buffers.others)
                                {
                                    lineAsWritten = record.position - start
                                    lineIsSpaced = record.position != end + 1 || record.skippedWhitespace
                                }
                            }
                            if record.sawDuplicateName {
                                noteDuplicateNames(in: record.bytes, at: start, record: recordIndex)
                            }
                        } catch {
                            self.lineEnd = lineEnd  // where reading goes on, if it does
                            // Cut off by its line's end: at the line feed.
                            if case .failed(let code, let arguments, let index) = error, endsWithLineFeed {
                                throw .failed(code, arguments, index: min(index, lineEnd - 1))
                            }
                            throw error
                        }
                        scanner.position = record.position
                        if scanner.position - start > maxRecordBytes {
                            failure = .recordTooLarge(limit: maxRecordBytes, at: recordLocation(of: start))
                            break
                        }
                        position = scanner.position
                        if layout != .lines { state = .inArray(first: false) }
                        if let otherFields {
                            fields = otherFields
                            expected = Unmanaged.passUnretained(otherFields)
                            expectedAddress = RawRecord.address(of: otherFields)
                        }
                        recordIndex += 1
                        handled += 1
                        let origin = RecordOrigin(index: recordIndex - 1, byteOffset: window.baseOffset + start)
                        do throws(FerryError) {
                            if buffers.others.isEmpty {
                                // Most records: no array to hold on to for the call.
                                try body(
                                    RawRecord(
                                        fieldsAddress: expectedAddress.unsafelyUnwrapped, values: buffers.cells.cells,
                                        others: UnsafeBufferPointer(start: nil, count: 0), origin: origin,
                                        lineAsWritten: lineAsWritten, lineIsSpaced: lineIsSpaced))
                            } else {
                                try buffers.withRecord(
                                    fields: expected.unsafelyUnwrapped.takeUnretainedValue(), origin: origin,
                                    lineAsWritten: lineAsWritten, lineIsSpaced: lineIsSpaced, body)
                            }
                        } catch {
                            failure = error
                            break
                        }
                    }
                    return .success(handled)
                } catch {
                    if case .needMore = error, handled > 0 { return .success(handled) }
                    return .failure(error)
                }
            }
            if let failure { throw failure }
            switch outcome {
            case .success(let handled):
                return handled
            case .failure(.needMore):
                if let dropped = try window.refillForRescan(keepingFrom: position) { position -= dropped }
            case .failure(.failed(let code, let arguments, let index)):
                throw FerryError(code, arguments, at: recordLocation(of: index))
            }
        }
    }
}

extension JSONReader {
    /// Whether the JSON Lines writer writes each cell of `buffers`, read in
    /// place from a compact line of plain keys, as it was read: text
    /// without escapes (`JSONText.appendQuoted` escapes only what such
    /// text cannot hold), strings with escapes the writer writes the same
    /// (the scanner checks: `escapedOtherwise`), numbers it prints back as
    /// written, literals. A number kept as text (`.number`) is written
    /// canonically, and nested values are written anew.
    ///
    /// Most records have no other values: `others` is looked at only when
    /// it has some (passing the array counted a reference a record).
    @inline(__always)
    static func writesAsRead(
        _ cells: UnsafeBufferPointer<RawValue>, hasOthers: Bool, others: @autoclosure () -> [Value]
    ) -> Bool {
        for cell in cells {
            if case .number = cell { return false }
        }
        guard hasOthers else { return true }
        return others().allSatisfy { value in
            if case .string = value { true } else { false }
        }
    }
}

extension JSONScanner {
    /// Moves to the next element of a top-level array or the next JSON Lines
    /// value, as `next()` does, updating `state` at the end.
    /// - Returns: false at the end (the closing bracket or the input's end).
    fileprivate mutating func startRawElement(
        _ state: inout JSONReader.State, after closed: JSONReader.State
    ) throws(JSONScanError) -> Bool {
        switch state {
        case .lines:
            skipWhitespace()
            guard position == bytes.count else { return true }
            guard isFinal else { throw .needMore }
            state = .done
            return false
        case .inArray(let first):
            let byte = try peekSignificant()
            if byte == UInt8(ascii: "]") {
                position += 1
                state = closed
                return false
            }
            if !first {
                guard byte == UInt8(ascii: ",") else { throw unexpected(at: position) }
                position += 1
            }
            _ = try peekSignificant()
            return true
        default:
            return false
        }
    }
}
