import FerryCore

/// Edits a JSON document (an array of records, or one object) or a JSON
/// Lines file by splicing: an edited member's value bytes are replaced, a
/// new member goes after the last one, a removed member is cut with its
/// comma; records are added after the last one and cut with their comma or
/// line. Every other byte stays as it was.
///
/// New bytes copy the file's style from its records (see `JSONRecordMap`):
/// the white space before a member, after a colon and before `}`, and
/// between records. Values are written compact, as `JSONText` writes them.
package final class JSONFileEditor: RecordFileEditor {
    package private(set) var records: [Record]
    package let keepsLayout = true
    private var bytes: [UInt8]
    /// The map of `bytes`, made again after a splice when it is next needed.
    private var cachedMap: JSONRecordMap?
    private let lines: Bool
    private let maxDepth: Int
    private let format: String

    /// - Throws: `edit.formatNotEditable` when the document's records are
    ///   not the objects the reader read.
    init(_ bytes: [UInt8], records: [Record], lines: Bool, maxDepth: Int, format: String) throws(FerryError) {
        let map = try JSONRecordMap(bytes, lines: lines, maxDepth: maxDepth, format: format)
        guard map.records.count == records.count else { throw .editFormatNotEditable(format) }
        cachedMap = map
        self.bytes = bytes
        self.records = records
        self.lines = lines
        self.maxDepth = maxDepth
        self.format = format
    }

    package func replace(at index: Int, with record: Record) throws(FerryError) {
        let map = try self.map()
        let old = try mapped(map.records[index], in: map)
        let kept = old.members.map { record[$0.name] != nil }
        guard kept.contains(true) else {
            // Every member goes: the object is written again, in the file's style.
            try splice([(old.range, try text(of: record))])
            records[index] = record
            return
        }
        var splices: [(Range<Int>, [UInt8])] = []
        let firstKept = kept.firstIndex(of: true) ?? 0
        if firstKept > 0 { splices.append((old.members[0].key.lowerBound..<old.members[firstKept].key.lowerBound, [])) }
        for (position, member) in old.members.enumerated() {
            guard let value = record[member.name] else {
                if position > firstKept { splices.append((old.members[position - 1].value.upperBound..<member.value.upperBound, [])) }
                continue
            }
            if value != records[index][member.name] || !sameCase(value, records[index][member.name]) {
                splices.append((member.value, try JSONFileEditor.valueText(value)))
            }
        }
        let style = Style(of: old, in: bytes)
        var added: [UInt8] = []
        for (name, value) in record.pairs where !old.members.contains(where: { $0.name == name }) {
            added += [UInt8(ascii: ",")] + style.separator + JSONText.quoted(name) + style.colon
            added += try JSONFileEditor.valueText(value)
        }
        if !added.isEmpty {
            let lastKept = kept.lastIndex(of: true) ?? 0
            splices.append((old.members[lastKept].value.upperBound..<old.members[lastKept].value.upperBound, added))
        }
        try splice(splices)
        records[index] = record
    }

    package func append(_ record: Record) throws(FerryError) {
        let text = try text(of: record)
        let map = try self.map()
        switch map.shape {
        case .object:
            throw .editSingleObject()
        case .lines:
            let ending = lineEnding(map)
            let needsBreak = !(bytes.last == 0x0A || bytes.isEmpty)
            try splice([(bytes.count..<bytes.count, (needsBreak ? ending : []) + text + ending)])
        case .array(let open, _):
            guard let last = map.records.last else {
                try splice([(open + 1..<open + 1, text)])
                break
            }
            let count = map.records.count
            let before = count >= 2 ? map.records[count - 2].upperBound : open
            var gap = Array(bytes[before..<last.lowerBound])
            if let comma = gap.firstIndex(of: UInt8(ascii: ",")) { gap.removeSubrange(...comma) }
            try splice([(last.upperBound..<last.upperBound, [UInt8(ascii: ",")] + gap + text)])
        }
        records.append(record)
    }

    package func remove(at index: Int) throws(FerryError) {
        let map = try self.map()
        let record = map.records[index]
        switch map.shape {
        case .object:
            throw .editSingleObject()
        case .lines:
            var start = record.lowerBound
            while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
            var end = record.upperBound
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if end < bytes.count {
                end += 1
            } else if start > 0 {
                // The last line without a line break: the one before loses its own.
                start -= bytes[start - 1] == 0x0A && start >= 2 && bytes[start - 2] == 0x0D ? 2 : 1
            }
            try splice([(start..<end, [])])
        case .array(let open, let close):
            let count = map.records.count
            let cut =
                count == 1
                ? open + 1..<close
                : index == 0
                    ? record.lowerBound..<map.records[1].lowerBound
                    : map.records[index - 1].upperBound..<record.upperBound
            try splice([(cut, [])])
        }
        records.remove(at: index)
    }

    package func encoded() throws(FerryError) -> [UInt8] { bytes }

    // MARK: - Bytes

    /// Replaces each range of the bytes as they are by its bytes, and maps them again.
    private func splice(_ splices: [(Range<Int>, [UInt8])]) throws(FerryError) {
        // From the end, so that earlier ranges stay where they were; a cut
        // before an insertion at the same place.
        let ordered = splices.sorted { ($0.0.lowerBound, $0.0.upperBound) > ($1.0.lowerBound, $1.0.upperBound) }
        for (range, replacement) in ordered { bytes.replaceSubrange(range, with: replacement) }
        cachedMap = nil
    }

    private func map() throws(FerryError) -> JSONRecordMap {
        if let cachedMap { return cachedMap }
        let map = try JSONRecordMap(bytes, lines: lines, maxDepth: maxDepth, format: format)
        cachedMap = map
        return map
    }

    /// The record at `range`, with its members.
    private func mapped(_ range: Range<Int>, in map: JSONRecordMap) throws(FerryError) -> MappedRecord {
        MappedRecord(range: range, members: try map.members(of: range, in: bytes))
    }

    /// Whether two values equal by number are written alike (an integer
    /// set over a double is written again).
    private func sameCase(_ new: Value, _ old: Value?) -> Bool {
        switch (new, old) {
        case (.integer, .integer?), (.double, .double?), (.number, .number?): return true
        case (.integer, _), (.double, _), (.number, _): return false
        default: return true
        }
    }

    /// The line break of the first record's line, else LF.
    private func lineEnding(_ map: JSONRecordMap) -> [UInt8] {
        guard let first = map.records.first, first.upperBound < bytes.count else { return [0x0A] }
        var index = first.upperBound
        while index < bytes.count && bytes[index] != 0x0A { index += 1 }
        return index > 0 && index < bytes.count && bytes[index - 1] == 0x0D ? [0x0D, 0x0A] : [0x0A]
    }

    /// `record` as an object in the style of the file's last record.
    private func text(of record: Record) throws(FerryError) -> [UInt8] {
        let map = try self.map()
        let style = try map.records.last.map { (last) throws(FerryError) in Style(of: try mapped(last, in: map), in: bytes) } ?? Style()
        guard !record.values.isEmpty else { return Array("{}".utf8) }
        var text: [UInt8] = [UInt8(ascii: "{")] + style.opening
        for (position, (name, value)) in record.pairs.enumerated() {
            if position > 0 { text += [UInt8(ascii: ",")] + style.separator }
            text += JSONText.quoted(name) + style.colon + (try JSONFileEditor.valueText(value))
        }
        return text + style.closing + [UInt8(ascii: "}")]
    }

    static func valueText(_ value: Value) throws(FerryError) -> [UInt8] {
        var buffer = WriteBuffer(capacity: 64)
        defer { buffer.release() }
        try JSONText.appendValue(value, to: &buffer)
        return buffer.bytes
    }

    /// A record's object and its members.
    private struct MappedRecord {
        var range: Range<Int>
        var members: [JSONMappedMember]
    }

    /// The white space a record puts around its members.
    private struct Style {
        /// After `{`, before the first key.
        var opening: [UInt8] = []
        /// After a comma, before the next key.
        var separator: [UInt8] = []
        /// Between a key and its value: the colon and any space.
        var colon: [UInt8] = [UInt8(ascii: ":")]
        /// After the last value, before `}`.
        var closing: [UInt8] = []

        init() {}

        init(of record: MappedRecord, in bytes: [UInt8]) {
            guard let first = record.members.first, let last = record.members.last else { return }
            opening = Array(bytes[record.range.lowerBound + 1..<first.key.lowerBound])
            colon = Array(bytes[first.key.upperBound..<first.value.lowerBound])
            closing = Array(bytes[last.value.upperBound..<record.range.upperBound - 1])
            if record.members.count >= 2 {
                var gap = Array(bytes[first.value.upperBound..<record.members[1].key.lowerBound])
                if let comma = gap.firstIndex(of: UInt8(ascii: ",")) { gap.removeSubrange(...comma) }
                separator = gap
            } else {
                separator = opening
            }
        }
    }
}

extension JSONCodec: EditableCodec {
    /// Records at a pointer (`--records-at`) are listed, not edited: the
    /// editor splices a top-level array.
    /// - Throws: `edit.recordsAtNotEditable` with a pointer; `json.invalidPointer`.
    public func makeEditor(_ bytes: [UInt8], records: [Record], context: ReadContext) throws(FerryError) -> any RecordFileEditor {
        if try Self.pointer(context) != nil, let pointer = context.options[Self.recordsAt] {
            throw .editRecordsAtNotEditable(pointer)
        }
        return try JSONFileEditor(bytes, records: records, lines: false, maxDepth: context.limits.maxDepth, format: id)
    }
}

extension JSONLinesCodec: EditableCodec {
    public func makeEditor(_ bytes: [UInt8], records: [Record], context: ReadContext) throws(FerryError) -> any RecordFileEditor {
        try JSONFileEditor(bytes, records: records, lines: true, maxDepth: context.limits.maxDepth, format: id)
    }
}
