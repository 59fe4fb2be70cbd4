// MARK: - Design
//
// `ferry schema infer` reads records as `validate` does, one at a time in
// the reader's buffers (raw records where the reader has them), and keeps
// a `FieldProfile` for each field name: what it learnt, never the records.
// Its memory is flat in the number of records but for the unique check,
// which is bounded (see `FieldProfile.uniqueKeyLimit`).
//
//     name,price,sku                 {"$schema": ".../2020-12/schema", "type": "object",
//     Wii,269.00,W-1          ──▶      "required": ["name", "price", "sku"],
//     Wii,199,W-2                      "properties": {
//                                        "name":  {"type": "string", "enum": ["Wii"]},
//                                        "price": {"type": "number", "minimum": 199, "maximum": 269.00},
//                                        "sku":   {"type": "string", "x-ferry-unique": true}}}
//
// Records are read with no kind, so that the schema says what the data
// holds rather than what a kind asks; CSV columns are typed by inference
// (Formats/csv.md), over the whole file, from the cells the profiles see
// (`FieldProfiles`): the file is read once. Every rule is one that each
// record read met, so `ferry validate --schema` passes the input.
//
// A large file that splits at line ends is read in parts at once, cut
// where `validate` cuts it (`PartPlan`), and the parts' profiles are
// merged in order (`SchemaInference+Parts.swift`): the schema is the one
// a single pass gives.

/// Drafts a JSON Schema (draft 2020-12) from the records of some files.
public struct SchemaInference {
    public let registry: CodecRegistry
    /// The threads to use (`--jobs`): N read a large file that splits at
    /// line ends in up to N parts at once, as `validate` cuts it
    /// (`PartPlan`); the schema is the same for every number.
    public var jobs = Cores.usable
    /// Files of at least this many bytes are read in parts; tests lower it.
    var partsThreshold = PartPlan.threshold

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// The draft schema the records of `paths`, taken together, meet.
    /// - Parameters:
    ///   - from: the input format, when the extension or contents cannot tell it.
    ///   - options: the codecs' read options (`--delimiter`, `--null`, …).
    /// - Returns: the schema document, and the readers' warnings.
    /// - Throws: the first problem reading a file, located.
    public func infer(
        _ paths: [String], from: String? = nil, options: OptionValues = OptionValues(), limits: ReadLimits = ReadLimits()
    ) throws(FerryError) -> (schema: Value, warnings: [FerryWarning]) {
        var profiles = FieldProfiles()
        var warnings: [FerryWarning] = []
        for path in paths {
            do throws(FerryError) {
                try OpenedInput.reading(path, limits: limits) { (opened) throws(FerryError) in
                    let codec = try FormatResolver(registry: registry).inputCodec(
                        path: opened.formatPath, prefix: opened.prefix, from: from)
                    if let plan = PartPlan(
                        path: path, codec: codec, opened: opened, codecOptions: options, threshold: partsThreshold,
                        jobs: jobs, parts: jobs),
                        let file = self.profiles(of: plan, codec: codec, limits: limits)
                    {
                        profiles.merge(file.resolved())
                        return
                    }
                    let context = ReadContext(kind: .generic, options: options, limits: limits)
                    // Types are inferred from the cells read here when they
                    // are all the file's cells: not from standard input or
                    // gzip, whose reader decides them from a sample.
                    context.defersTypeInference = opened.input.reopened() != nil
                    let reader = try opened.makeReader(codec, path: path, context: context)
                    var file = FieldProfiles()
                    try Self.observe(reader, context: context, into: &file)
                    profiles.merge(file.resolved())
                    warnings += context.takeWarnings()
                }
            } catch {
                throw error.located(SourceLocation(file: path))
            }
        }
        return (profiles.schema(threads: min(jobs, Cores.usable)), warnings)
    }

    /// Reads every record of `reader`, whose context is `context`, into `profiles`.
    /// - Throws: the reader's first error.
    static func observe(
        _ reader: any RecordReader, context: ReadContext, into profiles: inout FieldProfiles
    ) throws(FerryError) {
        if let raw = reader as? any RawRecordReader {
            while try raw.readRaw({ (record) throws(FerryError) in profiles.observe(record, context: context) }) {}
        } else {
            while let record = try reader.next() {
                RawRecord.with(record) { profiles.observe($0, context: context) }
            }
        }
        profiles.finish()
    }

    /// A schema document as indented JSON text, with a final line break.
    package static func text(of schema: Value) -> String { schema.prettyJSON }
}
