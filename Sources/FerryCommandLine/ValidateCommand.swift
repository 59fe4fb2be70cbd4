import FerryKit

/// `ferry validate <input>...`: checks records against their kind's rules
/// and reports every problem, for people or for CI.
struct ValidateCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        let options = [
            OptionSpec.format("from", short: "f", helpKey: .validateOptionFrom, registry: registry),
            OptionSpec(
                name: "kind", short: "k", valueName: "kind", helpKey: .validateOptionKind,
                allowed: RecordKind.allCases.map(\.rawValue)),
            OptionSpec(name: "schema", short: "s", valueName: "file", helpKey: .validateOptionSchema),
            OptionSpec(name: "schema-dir", valueName: "folder", helpKey: .validateOptionSchemaDir, repeats: true),
            OptionSpec(
                name: "photos", valueName: "mode", helpKey: .validateOptionPhotos,
                allowed: PhotoPolicy.allCases.map(\.rawValue)),
            OptionSpec(
                name: "formats", valueName: "mode", helpKey: .validateOptionFormats,
                allowed: SchemaFormatMode.allCases.map(\.rawValue)),
            OptionSpec(name: "strict", helpKey: .validateOptionStrict),
            OptionSpec(name: "verbose", helpKey: .validateOptionVerbose),
            OptionSpec(name: "combine", helpKey: .validateOptionCombine),
            .jobs,
        ] + ShardOptions.specs
        return CommandSpec(
            name: "validate", abstractKey: .validateAbstract,
            arguments: [ArgumentSpec(name: "input", helpKey: .validateArgumentInput, isRepeating: true)],
            options: ReportOptions.specs(around: options, registry: registry),
            examples: [
                Example(command: "ferry validate products.csv", key: .exampleValidate),
                Example(
                    command: "ferry validate data/*.jsonl --schema shop.schema.json --report-format junit -o report.xml",
                    key: .exampleValidateReport),
                Example(
                    command: "ferry validate --combine shard-0.json shard-1.json --report-format junit",
                    key: .exampleValidateCombine),
            ])
    }

    /// Checks the files and writes the report.
    /// - Returns: the exit status (see `ReportOptions.write`).
    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) -> Int32 {
        var options = try ReportOptions.validationOptions(arguments, registry: registry)
        options.strict = arguments.flag("strict")
        if let jobs = try CodecOptions.positive(arguments, "jobs") { options.jobs = jobs }
        if arguments.flag("combine") {
            let combined = try ReportCombiner(registry: registry).combine(
                arguments.positionals, maxErrors: options.maxErrors, strict: options.strict)
            return try ReportOptions.run(arguments, console: console) { combined }
        }
        options.kind = arguments["kind"].flatMap(RecordKind.init(rawValue:))
        options.photos = arguments["photos"].flatMap(PhotoPolicy.init(rawValue:)) ?? .check
        options.schema = try ReportOptions.schema(arguments)
        options.shard = try ShardOptions.range(arguments, input: arguments.positionals[0])
        if options.shard != nil && arguments.positionals.count > 1 {
            throw FerryError(.usageUnexpectedArgument, [.string(arguments.positionals[1])])
        }
        return try ReportOptions.run(arguments, console: console) {
            Validator(registry: registry).validate(arguments.positionals, options: options)
        }
    }
}

/// What `validate` and `lint` share: reading options, the report's form and
/// destination, the cap on errors, and the exit status.
enum ReportOptions {
    /// `options` with the report options, the limits and the codecs' reading
    /// options (the CSV dialect) around them.
    static func specs(around options: [OptionSpec], registry: CodecRegistry) -> [OptionSpec] {
        var specs =
            options + [
                OptionSpec(
                    name: "report-format", short: "r", valueName: "format", helpKey: .validateOptionReport,
                    allowed: ReportFormat.allCases.map(\.rawValue)),
                OptionSpec(name: "report-file", short: "o", valueName: "file", helpKey: .validateOptionOutput),
                OptionSpec(name: "max-errors", valueName: "n", helpKey: .validateOptionMaxErrors),
                OptionSpec(name: "force", helpKey: .validateOptionForce),
            ] + CodecOptions.limitSpecs
        specs += CodecOptions.specs(registry: registry, taken: Set(specs.map(\.name)), applying: .read)
        return specs + [.quiet, .help]
    }

    /// The schema `--schema` names, compiled with the schemas of
    /// `--schema-dir` (where the command has it) for its references, and
    /// its formats as `--formats` says; nil without the option.
    /// - Throws: a usage error when `--kind` is given too; the schema's own.
    static func schema(_ arguments: ParsedArguments) throws(FerryError) -> Schema? {
        let folders = arguments.all("schema-dir")
        guard let path = arguments["schema"] else {
            if !folders.isEmpty { throw .usageOptionNeeds("--schema-dir", "--schema") }
            if arguments.flag("verbose") { throw .usageOptionNeeds("--verbose", "--schema") }
            return nil
        }
        if arguments["kind"] != nil { throw FerryError(.usageConflictingOptions, [.string("--schema"), .string("--kind")]) }
        let formats = arguments["formats"].flatMap(SchemaFormatMode.init(rawValue:)) ?? .assert
        var schema = try Schema(contentsOf: path, folders: folders, formats: formats)
        schema.reportsEveryBranch = arguments.flag("verbose")
        return schema
    }

    /// The options every check takes from the command line.
    static func validationOptions(_ arguments: ParsedArguments, registry: CodecRegistry) throws(FerryError)
        -> ValidationOptions
    {
        var options = ValidationOptions()
        options.from = arguments["from"]
        options.limits = try CodecOptions.limits(arguments)
        options.codecOptions = CodecOptions.values(arguments, registry: registry)
        if let text = arguments["max-errors"] {
            guard let cap = Int(text), cap >= 0 else {
                throw .usageInvalidValue(option: "max-errors", value: text, expected: .message(.expectedCount))
            }
            options.maxErrors = cap == 0 ? nil : cap
        }
        return options
    }

    /// The files a command reads: its arguments (or those of them given as
    /// `read`), and the files its options name (a schema, a shard plan); an
    /// output must be none of them.
    static func inputs(_ arguments: ParsedArguments, read: [String]? = nil) -> [String] {
        (read ?? arguments.positionals) + ["schema", "plan"].compactMap { arguments[$0] }
    }

    /// Runs `check` and writes its report where the options say.
    /// - Returns: 0 when nothing is wrong, 1 when the data is, 3 when a
    ///   file could not be read.
    static func run(
        _ arguments: ParsedArguments, console: Console, _ check: () -> ValidationReport
    ) throws(FerryError) -> Int32 {
        let format = arguments["report-format"].flatMap(ReportFormat.init(rawValue:)) ?? .text
        try OutputFile.refuseInputs([arguments["report-file"]], inputs: inputs(arguments))
        // The output is opened before the work, so a wrong path fails at once.
        let file = try arguments["report-file"].flatMap { (path) throws(FerryError) -> OutputFile? in
            path == "-" ? nil : try OutputFile(path: path, overwrite: arguments.flag("force"))
        }
        let report = check()
        // --quiet leaves the problems alone in a text report.
        var text =
            format == .text && arguments.flag("quiet")
            ? report.diagnostics.map(console.formatter.render).joined(separator: "\n")
            : format.render(report, formatter: console.formatter, tool: ("ferry", FerryCLI.version))
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        if let file {
            try file.commit(text: text)
            // Whoever reads the file in CI still sees the outcome here.
            if !arguments.flag("quiet") {
                console.printError(TextReport.summaryLine(of: report, catalog: console.catalog))
            }
        } else {
            console.write(text)
        }
        switch report.worstCategory {
        case nil: return ExitStatus.success
        case .io: return ExitStatus.io
        case .usage: return ExitStatus.usage
        case .data: return ExitStatus.invalidData
        }
    }
}
