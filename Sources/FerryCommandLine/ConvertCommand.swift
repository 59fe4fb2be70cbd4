import FerryKit

/// `ferry convert <input> [<output>]`: one file into another format.
struct ConvertCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        var options =
            formatAndKindOptions(registry: registry) + [
            OptionSpec(name: "photos-dir", valueName: "dir", helpKey: .convertOptionPhotosDir),
            OptionSpec(name: "embed-photos", helpKey: .convertOptionEmbedPhotos),
            OptionSpec(name: "force", helpKey: .convertOptionForce),
        ] + CodecOptions.limitSpecs + [
            OptionSpec(name: "gzip", short: "z", helpKey: .convertOptionGzip),
            OptionSpec(
                name: "level", valueName: "n", helpKey: .convertOptionLevel, allowed: (1...9).map(String.init)),
            .jobs,
            .quiet,
        ] + ShardOptions.specs + [ShardOptions.header]
        options += CodecOptions.specs(registry: registry, taken: Set(options.map(\.name)))
        options.append(.help)
        return CommandSpec(
            name: "convert", abstractKey: .convertAbstract,
            arguments: [
                ArgumentSpec(name: "input", helpKey: .convertArgumentInput),
                ArgumentSpec(name: "output", helpKey: .convertArgumentOutput, isOptional: true),
            ],
            options: options,
            examples: [
                Example(command: "ferry convert products.csv products.json", key: .exampleConvertByExtension),
                Example(
                    command: "ferry convert Legacy.archive products.csv --photos-dir photos",
                    key: .exampleConvertPhotosDir),
                Example(command: "ferry convert products.json products.plist --to xml1", key: .exampleConvertTo),
                Example(command: "ferry convert books.csv books.jsonl.gz --level 9", key: .exampleConvertGzip),
                Example(command: "ferry convert books.csv --to jsonl | head", key: .exampleConvertStandardOutput),
            ])
    }

    /// `--from`, `--to`, `--kind` and `--schema`, which `merge` takes too.
    static func formatAndKindOptions(registry: CodecRegistry) -> [OptionSpec] {
        [
            OptionSpec.format("from", short: "f", helpKey: .convertOptionFrom, registry: registry),
            OptionSpec.format("to", short: "t", helpKey: .convertOptionTo, registry: registry),
            OptionSpec(
                name: "kind", short: "k", valueName: "kind", helpKey: .convertOptionKind,
                allowed: RecordKind.allCases.map(\.rawValue)),
            OptionSpec(name: "schema", short: "s", valueName: "file", helpKey: .convertOptionSchema),
        ]
    }

    /// The summary line that counts the changes of `code`.
    static func lossKey(_ code: FerryError.Code) -> PluralKey? {
        switch code {
        case .convertNumberRounded: .convertLossNumberRounded
        case .convertNullDropped: .convertLossNullDropped
        case .csvNullAsEmpty: .convertLossNullAsEmpty
        case .csvNestedAsJSON, .xlsxNestedAsJSON: .convertLossNestedAsJSON
        case .jsonDuplicateName: .convertLossDuplicateName
        case .xlsxPhotoAsDataURI: .convertLossPhotoAsDataURI
        case .xlsxDateAsText: .convertLossDateAsText
        case .xlsxTextTruncated: .convertLossTextTruncated
        case .xlsxCharacterDropped: .convertLossCharacterDropped
        default: nil
        }
    }

    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) {
        var options = ConversionOptions()
        options.from = arguments["from"]
        options.to = arguments["to"]
        options.kind = arguments["kind"].flatMap(RecordKind.init(rawValue:))
        options.schema = try ReportOptions.schema(arguments)
        options.photosDirectory = arguments["photos-dir"]
        options.embedPhotos = arguments.flag("embed-photos")
        options.overwrite = arguments.flag("force")
        options.limits = try CodecOptions.limits(arguments)
        options.compressOutput = arguments.flag("gzip")
        if let level = arguments["level"].flatMap(Int.init) { options.compressionLevel = level }
        if let jobs = try CodecOptions.positive(arguments, "jobs") { options.jobs = jobs }
        options.codecOptions = CodecOptions.values(arguments, registry: registry)

        let input = arguments.positionals[0]
        let output = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        try OutputFile.refuseInputs([output], inputs: ReportOptions.inputs(arguments, read: [input]))
        options.shard = try ShardOptions.range(arguments, input: input)
        let bar = ProgressBar(console: console, enabled: !arguments.flag("quiet"))
        var converter = Converter(registry: registry)
        converter.progress = { bar.update(bytesRead: $0, total: $1) }
        defer { bar.finish() }
        let summary = try converter.convert(input, to: output, options: options)
        bar.finish()
        for warning in summary.warnings { console.report(warning) }
        for loss in summary.losses { console.report(loss.warning) }
        for loss in summary.losses where !arguments.flag("quiet") {
            guard let key = lossKey(loss.warning.code) else { continue }
            console.printError(console.catalog.message(key, count: loss.count, [.count(loss.count), .string(loss.field)]))
        }
        if !arguments.flag("quiet"), console.errorIsTerminal, let output, output != "-" {
            console.printError(
                console.catalog.message(
                    .convertDone, count: summary.records,
                    [.count(summary.records), .path(output), .string(summary.outputFormat)]))
        }
    }
}

/// The options codecs declare, offered on the command line.
enum CodecOptions {
    /// The options that set limits, shared by every command that reads.
    static let limitSpecs = [
        OptionSpec(name: "max-depth", valueName: "n", helpKey: .convertOptionMaxDepth),
        OptionSpec(name: "max-record-bytes", valueName: "n", helpKey: .convertOptionMaxRecordBytes),
        OptionSpec(name: "max-expanded-bytes", valueName: "n", helpKey: .optionMaxExpandedBytes),
        OptionSpec(name: "max-ratio", valueName: "n", helpKey: .optionMaxRatio),
        OptionSpec(name: "max-input-bytes", valueName: "n", helpKey: .optionMaxInputBytes),
        OptionSpec(name: "max-objects", valueName: "n", helpKey: .optionMaxObjects),
        OptionSpec(name: "max-entries", valueName: "n", helpKey: .optionMaxEntries),
        OptionSpec(name: "max-entry-bytes", valueName: "n", helpKey: .optionMaxEntryBytes),
    ]

    static func specs(
        registry: CodecRegistry, taken: Set<String>, applying: CodecCapabilities = .readWrite
    ) -> [OptionSpec] {
        var seen = taken
        var specs: [OptionSpec] = []
        for codec in registry.codecs {
            for option in codec.options where !seen.contains(option.name) && !option.applies.isDisjoint(with: applying) {
                seen.insert(option.name)
                specs.append(
                    OptionSpec(
                        name: option.name, valueName: option.valueName, helpKey: option.helpKey,
                        allowed: option.allowed, aliases: option.aliases))
            }
        }
        return specs
    }

    static func values(_ arguments: ParsedArguments, registry: CodecRegistry) -> OptionValues {
        var values = OptionValues()
        for codec in registry.codecs {
            for option in codec.options {
                if let value = arguments[option.name] { values.values[option.name] = value }
                if arguments.flag(option.name) { values.values[option.name] = "" }
            }
        }
        return values
    }

    /// The deepest nesting `--max-depth` may allow.
    static let maxDepthAllowed = 10_000

    /// The limits given on the command line, over the defaults.
    static func limits(_ arguments: ParsedArguments) throws(FerryError) -> ReadLimits {
        var limits = ReadLimits()
        if let depth = try positive(arguments, "max-depth") {
            // Each level costs stack; 10,000 fits the reading threads' stack
            // with room to spare, in every build.
            guard depth <= maxDepthAllowed else {
                throw .usageInvalidValue(option: "max-depth", value: String(depth), expected: .message(.expectedDepth))
            }
            limits.maxDepth = depth
        }
        if let bytes = try positive(arguments, "max-record-bytes") { limits.maxRecordBytes = bytes }
        if let bytes = try positive(arguments, "max-expanded-bytes") { limits.maxExpandedBytes = bytes }
        if let ratio = try positive(arguments, "max-ratio") { limits.maxExpansionRatio = ratio }
        if let bytes = try positive(arguments, "max-input-bytes") { limits.maxInputBytes = bytes }
        if let objects = try positive(arguments, "max-objects") { limits.maxObjects = objects }
        if let entries = try positive(arguments, "max-entries") { limits.maxEntries = entries }
        if let bytes = try positive(arguments, "max-entry-bytes") { limits.maxEntryBytes = bytes }
        return limits
    }

    static func positive(_ arguments: ParsedArguments, _ name: String) throws(FerryError) -> Int? {
        guard let text = arguments[name] else { return nil }
        guard let value = Int(text), value > 0 else {
            throw .usageInvalidValue(option: name, value: text, expected: .message(.expectedPositiveNumber))
        }
        return value
    }
}
