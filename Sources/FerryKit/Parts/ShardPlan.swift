/// A file cut into byte ranges that each begin at a record boundary, for
/// `ferry plan`: the shape `Formats/plan.schema.json` documents, and
/// Formats/shards.md explains.
///
///     file:   name,price\n Wii,269\n Xbox,299\n Switch,329\n
///             ^ shard 0 (the header's bytes are its own)
///                          ^ shard 1: start 19, firstRecord 2, firstLine 3
package struct ShardPlan: Sendable, Hashable {
    /// One range of the file.
    package struct Shard: Sendable, Hashable {
        /// The first byte, and the byte after the last.
        package var start: Int
        package var end: Int
        /// The number of the first record at or after `start` (1-based), as
        /// a whole-file run counts records.
        package var firstRecord: Int
        /// The line `start` is on (1-based).
        package var firstLine: Int
        /// How many records the range holds.
        package var records: Int

        package init(start: Int, end: Int, firstRecord: Int, firstLine: Int, records: Int) {
            self.start = start
            self.end = end
            self.firstRecord = firstRecord
            self.firstLine = firstLine
            self.records = records
        }
    }

    /// The CSV or TSV header: the bytes of its row, which a reader of a
    /// later shard reads first, and the columns they name.
    package struct Header: Sendable, Hashable {
        package var end: Int
        package var lines: Int
        package var fields: [String]
    }

    /// Bumped when a key changes meaning or goes.
    package static let version = 1

    package var input: String
    /// The file's size when it was planned.
    package var size: Int
    /// The codec id: `csv`, `tsv`, `jsonl` or `json`.
    package var format: String
    /// CSV and TSV: the delimiter the file is read with, one byte.
    package var delimiter: UInt8?
    /// CSV and TSV: the header row, nil with `--no-header`.
    package var header: Header?
    package var records: Int
    package var shards: [Shard]

    /// The plan as JSON, for `ferry plan` and the `--plan` option.
    package var value: Value {
        var root = JSONObjectBuilder()
        root.set("planVersion", Self.version)
        root.set("input", input)
        root.set("size", size)
        root.set("format", format)
        if let delimiter { root.set("delimiter", String(decoding: [delimiter], as: UTF8.self)) }
        if let header {
            var object = JSONObjectBuilder()
            object.set("start", 0)
            object.set("end", header.end)
            object.set("lines", header.lines)
            object.set("fields", .array(header.fields.map(Value.string)))
            root.set("header", object.value)
        }
        root.set("records", records)
        root.set(
            "shards",
            .array(
                shards.enumerated().map { index, shard in
                    var object = JSONObjectBuilder()
                    object.set("shard", index)
                    object.set("start", shard.start)
                    object.set("end", shard.end)
                    object.set("firstRecord", shard.firstRecord)
                    object.set("firstLine", shard.firstLine)
                    object.set("records", shard.records)
                    return object.value
                }))
        return root.value
    }

    package var json: String { value.prettyJSON }

    /// Reads a plan written by `value`.
    /// - Throws: `shard.badPlan` when it is not one.
    package init(_ value: Value, path: String) throws(FerryError) {
        func int(_ object: Value?, _ key: String) throws(FerryError) -> Int {
            guard case .object(let fields)? = object, let found = fields[key]?.intValue else { throw FerryError.shardBadPlan(path) }
            return found
        }
        guard case .object(let root) = value, root["planVersion"]?.intValue == Self.version,
            let input = root["input"]?.stringValue, let format = root["format"]?.stringValue,
            case .array(let shards)? = root["shards"], !shards.isEmpty
        else { throw FerryError.shardBadPlan(path) }
        self.input = input
        self.format = format
        size = try int(value, "size")
        records = try int(value, "records")
        delimiter = root["delimiter"]?.stringValue.flatMap { $0.utf8.count == 1 ? $0.utf8.first : nil }
        if let header = root["header"], case .object(let fields) = header {
            guard case .array(let names)? = fields["fields"] else { throw FerryError.shardBadPlan(path) }
            self.header = Header(
                end: try int(header, "end"), lines: try int(header, "lines"), fields: names.compactMap(\.stringValue))
        }
        var read: [Shard] = []
        for shard in shards {
            let parsed = Shard(
                start: try int(shard, "start"), end: try int(shard, "end"),
                firstRecord: try int(shard, "firstRecord"), firstLine: try int(shard, "firstLine"),
                records: try int(shard, "records"))
            // What `ferry plan` writes: a first record and line from 1, with
            // no more records and lines before the shard than the file has
            // bytes (each takes one at least). Numbers past these overflow
            // where a shard's places move to the file's (`PartPlan.Shift`).
            // Bytes outside the file are `shard.badRange` when read.
            guard parsed.firstRecord >= 1, parsed.firstRecord - 1 <= size, parsed.firstLine >= 1,
                parsed.firstLine - 1 <= size
            else { throw FerryError.shardBadPlan(path) }
            read.append(parsed)
        }
        self.shards = read
    }

    init(input: String, size: Int, format: String, delimiter: UInt8?, header: Header?, records: Int, shards: [Shard]) {
        self.input = input
        self.size = size
        self.format = format
        self.delimiter = delimiter
        self.header = header
        self.records = records
        self.shards = shards
    }
}

extension ShardPlan {
    /// Reads the plan in the file at `path`, as `ferry plan` wrote it.
    /// - Throws: `io.*`; `shard.badPlan` when it is not a plan.
    package init(contentsOf path: String) throws(FerryError) {
        guard let value = try Value.jsonFile(path) else { throw .shardBadPlan(path) }
        try self.init(value, path: path)
    }
}

extension Value {
    /// The JSON document in the file at `path` (a plan, a shard's report),
    /// or nil when it is not JSON.
    /// - Throws: `io.*`; `limit.inputTooLarge` past `ReadLimits.maxInputBytes`.
    static func jsonFile(_ path: String) throws(FerryError) -> Value? {
        let input = try FileInput(path: path)
        defer { input.close() }
        let bytes = try InputBytes.read(input, limit: ReadLimits().maxInputBytes).array()
        return bytes.withUnsafeBufferPointer { JSONCodec.value($0, maxDepth: 64) }
    }

    /// The integer, when the value is one.
    var intValue: Int? {
        switch self {
        case .integer(let number): Int(exactly: number)
        case .number(let text): Int(text.text)
        default: nil
        }
    }
}
