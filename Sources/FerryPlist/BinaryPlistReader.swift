import FerryCore

/// Streams records out of a binary plist whose top object is an array of
/// dictionaries (the shape plutil and plistlib write), or a dictionary, which
/// is one record.
///
/// The file is read whole, as the format needs, but records are decoded one
/// at a time. Keys are decoded once per key object: writers share key
/// strings, so a million records with the same keys cost one set of names.
package final class BinaryPlistReader: RawRecordReader {
    // The reader's state is touched for every value; it is never shared
    // between threads, so the run-time exclusivity checks are left out.
    @exclusivity(unchecked) private var decoder: BinaryPlistDecoder
    private let elements: (list: Int, count: Int)?
    private var position = 0
    private var failure: FerryError?
    /// Whether `failure` is set: cheaper to test for every record.
    private var failed = false
    /// Whether a bad element of the root array is skipped (the next call
    /// reads the one after it) rather than ending the reading.
    package var resumesAfterBadRecords = false
    /// Whether the error being thrown was such a skip.
    private var lastErrorResumes = false
    package var resumesAfterError: Bool { lastErrorResumes }
    /// The fields of the last few key sets, and where each key's value goes
    /// when a key repeats.
    @exclusivity(unchecked) private var keySets = KeySetCache<(fields: FieldList, slots: [Int]?)>()
    private var fieldLists: [FieldList: FieldList] = [:]
    /// The cells of the record being read, reused from one to the next.
    @exclusivity(unchecked) private var rawBuffers = RawRecordBuffers()

    /// - Throws: `limit.inputTooLarge`, the scanner's trailer errors and
    ///   `format.notRecords` when the top object holds no records.
    package init(_ input: any ByteInput, limits: ReadLimits) throws(FerryError) {
        let contents = try InputBytes.read(input, limit: limits.maxInputBytes)
        let scanner = try BinaryPlistScanner(contents, name: input.name, limits: limits)
        decoder = BinaryPlistDecoder(scanner, limits: limits, fileSize: contents.count)
        let top = scanner.topObject
        switch try scanner.object(top) {
        case .array(let list, let count):
            try decoder.enter(top, depth: 1)
            elements = (list, count)
        case .dictionary:
            elements = nil
        default:
            let type = try decoder.value(top).typeName
            throw .formatNotRecords(found: type, at: scanner.location(try scanner.offset(of: top)))
        }
    }

    deinit {
        rawBuffers.deallocate()
        keySets.deallocate()
    }

    package func next() throws(FerryError) -> Record? {
        lastErrorResumes = false
        var record: Record?
        _ = try readRecords(upTo: 1) { record = $0.record() }
        return record
    }

    /// Reads the next record's cells into `buffers`.
    /// - Returns: its fields and origin; nil at the end.
    private func nextRecord(
        into buffers: inout RawRecordBuffers
    ) throws(FerryError) -> (FieldList, RecordOrigin)? {
        if failed, let failure { throw failure }
        do throws(FerryError) {
            let index: Int
            if let elements {
                guard position < elements.count else { return nil }
                index = try decoder.scanner.reference(elements.list, position)
            } else {
                guard position == 0 else { return nil }
                index = decoder.scanner.topObject
            }
            let fields = try fillRecord(index, depth: elements == nil ? 1 : 2, into: &buffers)
            let origin = RecordOrigin(index: position, byteOffset: try decoder.scanner.offset(of: index))
            position += 1
            return (fields, origin)
        } catch {
            let located = error.located(SourceLocation(file: decoder.scanner.name, record: position))
            if resumesAfterBadRecords, elements != nil, error.spoilsOneRecord {
                position += 1
                lastErrorResumes = true
                throw located
            }
            failure = located
            failed = true
            throw located
        }
    }

    private func fillRecord(
        _ index: Int, depth: Int, into buffers: inout RawRecordBuffers
    ) throws(FerryError) -> FieldList {
        let scanner = decoder.scanner
        guard case .dictionary(let list, let count) = try scanner.object(index) else {
            let type = try decoder.value(index, depth: depth).typeName
            throw .bplistRecordNotDictionary(index, type: type, at: scanner.location(try scanner.offset(of: index)))
        }
        try decoder.enter(index, depth: depth)
        defer { decoder.leave(index) }
        let (fields, slots) = try fieldList(list, count: count, of: index)
        buffers.removeAll()
        if let slots {
            // A repeated key keeps its first place and its last value.
            var cells = [RawValue](repeating: .null, count: fields.count)
            for position in 0..<count {
                cells[slots[position]] = try decoder.rawValue(
                    try scanner.reference(list, count + position), depth: depth + 1, others: &buffers.others)
            }
            for cell in cells { buffers.cells.append(cell) }
        } else {
            for position in 0..<count {
                buffers.cells.append(
                    try decoder.rawValue(
                        try scanner.reference(list, count + position), depth: depth + 1, others: &buffers.others))
            }
        }
        return fields
    }

    /// The fields of the dictionary whose `count` key references start at
    /// byte `list`, and where each key's value goes when a key repeats.
    private func fieldList(_ list: Int, count: Int, of dictionary: Int) throws(FerryError) -> (FieldList, [Int]?) {
        let referenceBytes = decoder.scanner.referenceBytes(list, count: count)
        return try keySets.entry(for: referenceBytes, count: count) { () throws(FerryError) in
            var keys: [Int] = []
            keys.reserveCapacity(count)
            for position in 0..<count { keys.append(try decoder.scanner.reference(list, position)) }
            return try fieldList(keys, of: dictionary)
        }
    }

    private func fieldList(_ keys: [Int], of dictionary: Int) throws(FerryError) -> (FieldList, [Int]?) {
        var names: [String] = []
        names.reserveCapacity(keys.count)
        var slots: [Int] = []
        var firstSlot: [[UInt8]: Int] = [:]
        var repeats = false
        for key in keys {
            let name = try decoder.cachedKey(key, of: dictionary)
            if let slot = firstSlot[Array(name.utf8)] {
                repeats = true
                slots.append(slot)
            } else {
                firstSlot[Array(name.utf8)] = names.count
                slots.append(names.count)
                names.append(name)
            }
        }
        let made = FieldList(names)
        let fields = fieldLists[made] ?? made
        if fieldLists[made] == nil {
            if fieldLists.count >= 256 { fieldLists.removeAll(keepingCapacity: true) }
            fieldLists[made] = made
        }
        return (fields, repeats ? slots : nil)
    }
}

extension BinaryPlistReader {
    /// Hands out up to a few thousand records in place: their ASCII strings
    /// point into the plist, which the reader holds whole.
    package func readRaw(_ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool {
        lastErrorResumes = false
        return try readRecords(upTo: 4096, body)
    }

    /// Hands out up to `limit` records.
    /// - Returns: false at the end.
    private func readRecords(upTo limit: Int, _ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool {
        // The buffers move into locals for the loop, and back after it.
        var buffers = RawRecordBuffers()
        swap(&buffers, &rawBuffers)
        defer { swap(&buffers, &rawBuffers) }
        for _ in 0..<limit {
            guard let (fields, origin) = try nextRecord(into: &buffers) else { return false }
            try buffers.withRecord(fields: fields, origin: origin, body)
        }
        return true
    }
}
