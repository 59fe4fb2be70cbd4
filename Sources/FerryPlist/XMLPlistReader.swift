import FerryCore

/// Streams records out of an XML property list: a top-level `<array>` of
/// `<dict>`s, one record each, or one top-level `<dict>` as one record.
///
/// The reader holds no more than one record's bytes beyond its read chunk:
/// it scans a record in an `InputWindow`, hands it out, and drops its bytes
/// at the next refill. Consecutive records with the same keys share one
/// `FieldList`, and while keys match it no key string is built.
package final class XMLPlistReader: RecordReader {
    private enum State {
        /// Before the root: the XML declaration, DOCTYPE and `<plist>`.
        case prolog
        /// At the root value.
        case root
        case inArray
        /// After the root: `</plist>` and nothing else.
        case trailer
        case done
        case failed(FerryError)
    }

    /// What one step found.
    private enum Step {
        case record(FieldList, [Value], start: Int)
        case other
        case end
    }

    /// What one element of the root, or of the root array, is.
    private enum Element {
        case record(FieldList, [Value], start: Int)
        case arrayStart
        case arrayEnd
    }

    private let window: InputWindow
    private let maxDepth: Int
    private let maxRecordBytes: Int
    private var state = State.prolog
    private var position = 0
    private var recordIndex = 0
    /// Whether the root is wrapped in `<plist>`.
    private var wrapped = false
    private var fields: FieldList?
    private var cache = XMLPlistFieldLists()

    /// - Parameters:
    ///   - input: the bytes: UTF-8, or UTF-16 after a byte order mark,
    ///     converted to UTF-8 as they are read (`XMLPlistEncoding`), as
    ///     `PlistXMLCodec` reads them.
    ///   - limits: nesting depth and record size.
    /// - Throws: `io.readFailed` while looking at the first two bytes.
    package init(_ input: any ByteInput, limits: ReadLimits = ReadLimits()) throws(FerryError) {
        window = InputWindow(try XMLPlistEncoding.utf8(input), limit: limits.maxRecordBytes)
        maxDepth = limits.maxDepth
        maxRecordBytes = limits.maxRecordBytes
    }

    /// The next record.
    /// - Throws: `format.notRecords` for a root or array element that is not
    ///   a `<dict>`; `limit.nestingTooDeep`, `limit.recordTooLarge`,
    ///   `io.readFailed` and the `xmlplist.*` codes. After an error, every
    ///   call throws it again.
    package func next() throws(FerryError) -> Record? {
        while true {
            switch try advance() {
            case .record(let fields, let values, let start):
                let origin = RecordOrigin(index: recordIndex - 1, byteOffset: start)
                return Record(fields: fields, values: values, origin: origin)
            case .other: continue
            case .end: return nil
            }
        }
    }

    package func location(ofByteOffset offset: Int) -> SourceLocation {
        guard offset >= window.baseOffset else { return SourceLocation(file: window.input.name, byteOffset: offset) }
        return window.location(of: offset - window.baseOffset)
    }

    /// Where the value of `name` is in the record whose `<dict>` starts at
    /// `byteOffset`: the dict is scanned again while it is in the window.
    package func location(ofField name: String, inRecordAt byteOffset: Int) -> SourceLocation? {
        let start = byteOffset - window.baseOffset
        guard start >= 0, start < window.count else { return nil }
        let wanted = Array(name.utf8)
        let maxDepth = maxDepth
        let found = window.bytes.withUnsafeBufferPointer { buffer -> Int? in
            var scanner = XMLPlistScanner(
                UnsafeBufferPointer(rebasing: buffer[0..<window.count]), position: start, isFinal: true)
            return (try? scanner.valueStart(of: wanted, maxDepth: maxDepth)) ?? nil
        }
        return found.map { window.location(of: $0) }
    }

    // MARK: - Steps

    private func advance() throws(FerryError) -> Step {
        do throws(FerryError) {
            switch state {
            case .prolog: return try prolog()
            case .root: return try element(atRoot: true)
            case .inArray: return try element(atRoot: false)
            case .trailer: return try trailer()
            case .done: return .end
            case .failed(let error): throw error
            }
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private func prolog() throws(FerryError) -> Step {
        try window.fill(atLeast: 3)
        if window.count >= 3 && window.bytes[0] == 0xEF && window.bytes[1] == 0xBB && window.bytes[2] == 0xBF {
            position = 3
        }
        wrapped = try scan(inRecord: false) { (scanner) throws(XMLPlistScanError) -> Bool in
            let markup = try scanner.nextMarkup()
            switch markup {
            case .open(.plist): return true
            case .empty(.plist), .end: throw .failed(.xmlPlistEmpty(), index: scanner.markupStart)
            default:
                scanner.position = scanner.markupStart
                return false
            }
        }
        state = .root
        return .other
    }

    /// The root value, or the next element of the root array: a record, the
    /// array's start or end, or an error.
    private func element(atRoot: Bool) throws(FerryError) -> Step {
        let expected = fields
        let depth = atRoot ? 1 : 2
        let maxDepth = maxDepth
        let wrapped = wrapped
        var localCache = XMLPlistFieldLists()
        swap(&localCache, &cache)
        defer { swap(&localCache, &cache) }
        let element = try scan(inRecord: true) { (scanner) throws(XMLPlistScanError) -> Element in
            let markup = try scanner.nextMarkup()
            let start = scanner.markupStart
            switch markup {
            case .open(.dict), .empty(.dict):
                let (fields, values) = try scanner.parseRecord(
                    markup, depth: depth, maxDepth: maxDepth, expecting: expected, cache: &localCache)
                return .record(fields, values, start: start)
            case .open(.array) where atRoot:
                return .arrayStart
            case .empty(.array) where atRoot, .close(.array) where !atRoot:
                return .arrayEnd
            case .open(let tag) where tag != .key && tag != .plist, .empty(let tag) where tag != .key && tag != .plist:
                throw .failed(.formatNotRecords(found: tag.recordTypeName, at: .unknown), index: start)
            case .close(.plist) where atRoot && wrapped, .end where atRoot && !wrapped:
                throw .failed(.xmlPlistEmpty(), index: start)
            default:
                throw scanner.unexpected(markup, inside: atRoot ? (wrapped ? .plist : nil) : .array)
            }
        }
        switch element {
        case .record(let fields, let values, let start):
            if position - start > maxRecordBytes {
                var location = window.location(of: start)
                location.record = recordIndex
                throw .recordTooLarge(limit: maxRecordBytes, at: location)
            }
            self.fields = fields
            recordIndex += 1
            if atRoot { state = .trailer }
            return .record(fields, values, start: window.baseOffset + start)
        case .arrayStart:
            state = .inArray
            return .other
        case .arrayEnd:
            state = .trailer
            return .other
        }
    }

    private func trailer() throws(FerryError) -> Step {
        let wrapped = wrapped
        try scan(inRecord: false) { (scanner) throws(XMLPlistScanError) in
            if wrapped {
                let closing = try scanner.nextMarkup()
                guard closing == .close(.plist) else { throw scanner.unexpected(closing, inside: .plist) }
            }
            let trailing = try scanner.nextMarkup()
            guard trailing == .end else {
                throw .failed(.xmlPlistUnexpectedTag(trailing.text), index: scanner.markupStart)
            }
        }
        state = .done
        return .end
    }

    // MARK: - Scanning with refills

    /// Runs `body` on a scanner over the window from the current position.
    /// When the scanner runs out of bytes, refills the window and runs `body`
    /// again from the same place; on success, moves the position on.
    private func scan<Result>(
        inRecord: Bool, _ body: (inout XMLPlistScanner) throws(XMLPlistScanError) -> Result
    ) throws(FerryError) -> Result {
        while true {
            let outcome = window.bytes.withUnsafeBufferPointer { buffer -> Swift.Result<Result, XMLPlistScanError> in
                var scanner = XMLPlistScanner(
                    UnsafeBufferPointer(rebasing: buffer[0..<window.count]), position: position,
                    isFinal: window.isAtEnd)
                do throws(XMLPlistScanError) {
                    let result = try body(&scanner)
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
            case .failure(.failed(let error, let index)):
                var location = window.location(of: index)
                if inRecord { location.record = recordIndex }
                throw error.located(location)
            }
        }
    }
}

// MARK: - Records

extension XMLPlistScanner {
    /// Where the value of key `name` starts in the `<dict>` at the position
    /// (the last one, as a repeated key keeps the last value); nil when the
    /// dict has no such key.
    mutating func valueStart(of name: [UInt8], maxDepth: Int) throws(XMLPlistScanError) -> Int? {
        guard try nextMarkup() == .open(.dict) else { return nil }
        var found: Int?
        while true {
            let markup = try nextMarkup()
            guard markup == .open(.key) || markup == .empty(.key) else { return found }
            let range = markup == .empty(.key) ? position..<position : try text(of: .key)
            let matches = withText(range) { XMLPlistScanner.equal($0, name) }
            let value = try nextMarkup()
            if matches { found = markupStart }
            _ = try parseValue(value, depth: 2, maxDepth: maxDepth)
        }
    }

    /// Parses the `<dict>` that `opening` starts as a record, nested `depth`
    /// deep (1 for a root dict, 2 inside the root array).
    ///
    /// While its keys match `expected` in order, no key string is built: the
    /// key's bytes are compared with the interned names. The first key that
    /// differs switches to collecting names, and the record gets a field list
    /// from `cache`. A repeated key keeps the last value.
    mutating func parseRecord(
        _ opening: XMLPlistMarkup, depth: Int, maxDepth: Int, expecting expected: FieldList?,
        cache: inout XMLPlistFieldLists
    ) throws(XMLPlistScanError) -> (FieldList, [Value]) {
        guard depth <= maxDepth else {
            throw .failed(.nestingTooDeep(limit: maxDepth, at: .unknown), index: markupStart)
        }
        var values: [Value] = []
        guard opening == .open(.dict) else { return (cache.fieldList(for: []), values) }
        values.reserveCapacity(expected?.count ?? 8)
        var collected: [String]?
        var finder = XMLPlistKeyFinder()
        while true {
            let markup = try nextMarkup()
            let slot = values.count
            var key: String?
            switch markup {
            case .close(.dict):
                if let collected { return (cache.fieldList(for: collected), values) }
                if let expected, values.count == expected.count { return (expected, values) }
                return (cache.fieldList(for: Array((expected?.names ?? []).prefix(slot))), values)
            case .open(.key), .empty(.key):
                let range = markup == .empty(.key) ? position..<position : try text(of: .key)
                if collected == nil, let expected, slot < expected.count,
                    withText(range, { XMLPlistScanner.equal($0, expected.utf8Names[slot]) })
                {
                    break  // still on the interned list
                }
                key = withText(range) { String(decoding: $0, as: UTF8.self) }
                if collected == nil { collected = Array((expected?.names ?? []).prefix(slot)) }
            case .open(let tag), .empty(let tag):
                throw .failed(.xmlPlistMissingKey(before: tag.markup), index: markupStart)
            case .close, .end:
                throw unexpected(markup, inside: .dict)
            }
            let name = key ?? expected?.names[slot] ?? ""
            let valueMarkup = try nextMarkup()
            switch valueMarkup {
            case .end: throw unexpected(valueMarkup, inside: .dict)
            case .close, .open(.key), .empty(.key):
                throw .failed(.xmlPlistMissingValue(key: name), index: markupStart)
            default: break
            }
            let valueStart = markupStart
            let value: Value
            do throws(XMLPlistScanError) {
                let parsed = try parseValue(valueMarkup, depth: depth + 1, maxDepth: maxDepth)
                do throws(FerryError) {
                    value = try parsed.recordValue()
                } catch {
                    throw XMLPlistScanError.failed(error, index: valueStart)
                }
            } catch {
                guard case .failed(let failure, let index) = error else { throw error }
                throw .failed(failure.located(SourceLocation(field: name)), index: index)
            }
            if let key {
                if let earlier = finder.index(of: key, in: collected ?? []) {
                    values[earlier] = value
                } else {
                    finder.added(key, at: slot)
                    collected?.append(key)
                    values.append(value)
                }
            } else {
                values.append(value)
            }
        }
    }
}

extension XMLPlistScanner {
    /// Whether `text` holds exactly the bytes of `name`.
    @inline(__always)
    static func equal(_ text: UnsafeBufferPointer<UInt8>, _ name: [UInt8]) -> Bool {
        guard text.count == name.count else { return false }
        return name.withUnsafeBufferPointer { name in
            for index in 0..<name.count where text[index] != name[index] { return false }
            return true
        }
    }
}

/// Interned field lists, so records with the same keys share one list.
/// Keys compare by bytes: canonically equivalent keys are different fields.
struct XMLPlistFieldLists {
    private var lists: [[XMLPlistKeyBytes]: FieldList] = [:]

    mutating func fieldList(for keys: [String]) -> FieldList {
        let identity = keys.map(XMLPlistKeyBytes.init)
        if let known = lists[identity] { return known }
        let made = FieldList(keys)
        if lists.count >= 256 { lists.removeAll(keepingCapacity: true) }
        lists[identity] = made
        return made
    }
}
