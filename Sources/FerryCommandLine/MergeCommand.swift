import FerryKit

/// `ferry merge <input>... --output FILE`: inputs of one kind into one
/// output, duplicates by key merged, conflicts settled by a policy.
struct MergeCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        var options =
            [OptionSpec(name: "output", short: "o", valueName: "file", helpKey: .mergeOptionOutput)]
            + ConvertCommand.formatAndKindOptions(registry: registry) + [
                OptionSpec(name: "key", valueName: "fields", helpKey: .mergeOptionKey),
                OptionSpec(
                    name: "on-conflict", valueName: "policy", helpKey: .mergeOptionOnConflict,
                    allowed: ConflictPolicy.allCases.map(\.rawValue)),
                OptionSpec(name: "report-file", valueName: "file", helpKey: .mergeOptionReport),
                OptionSpec(
                    name: "report-format", valueName: "format", helpKey: .mergeOptionReportFormat,
                    allowed: MergeReportFormat.allCases.map(\.rawValue)),
                OptionSpec(name: "show-conflicts", valueName: "n|all", helpKey: .mergeOptionShowConflicts),
                OptionSpec(name: "memory", valueName: "size", helpKey: .mergeOptionMemory),
                .jobs,
                OptionSpec(name: "photos-dir", valueName: "dir", helpKey: .convertOptionPhotosDir),
                OptionSpec(name: "embed-photos", helpKey: .convertOptionEmbedPhotos),
                OptionSpec(name: "force", helpKey: .mergeOptionForce),
            ] + CodecOptions.limitSpecs + [.quiet]
        options += CodecOptions.specs(registry: registry, taken: Set(options.map(\.name)))
        options.append(.help)
        return CommandSpec(
            name: "merge", abstractKey: .mergeAbstract,
            arguments: [ArgumentSpec(name: "input", helpKey: .mergeArgumentInput, isRepeating: true)],
            options: options,
            examples: [
                Example(
                    command: "ferry merge Products.archive export.csv feed.json --output products.json",
                    key: .exampleMerge),
                Example(
                    command:
                        "ferry merge a.jsonl b.csv -o books.jsonl --key title,author --on-conflict keep-last --report-file r.json --report-format json",
                    key: .exampleMergeKey),
            ])
    }

    /// Merges, then reports.
    /// - Returns: 0 when merged, 1 when `--on-conflict fail` met a conflict
    ///   (nothing written).
    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) -> Int32 {
        guard let output = arguments["output"] else {
            throw FerryError(.usageMissingArgument, [.string("--output"), .string("merge")])
        }
        var options = MergeOptions()
        options.from = arguments["from"]
        options.to = arguments["to"]
        options.kind = arguments["kind"].flatMap(RecordKind.init(rawValue:))
        options.schema = try ReportOptions.schema(arguments)
        options.key = arguments["key"].map { $0.split(separator: ",").map { String($0).trimmingSpaces } }
        options.policy = arguments["on-conflict"].flatMap(ConflictPolicy.init(rawValue:)) ?? .keepFirst
        options.overwrite = arguments.flag("force")
        options.limits = try CodecOptions.limits(arguments)
        options.codecOptions = CodecOptions.values(arguments, registry: registry)
        options.photosDirectory = arguments["photos-dir"]
        options.embedPhotos = arguments.flag("embed-photos")
        if let jobs = try CodecOptions.positive(arguments, "jobs") { options.jobs = jobs }
        let shown = try shownConflicts(arguments)
        // Conflicts that go nowhere need no key, no differences and no place.
        if arguments["report-file"] == nil { options.listedConflicts = arguments.flag("quiet") ? 0 : shown }
        if let text = arguments["memory"] {
            guard let bytes = byteSize(text) else {
                throw .usageInvalidValue(option: "memory", value: text, expected: .message(.expectedSize))
            }
            options.memoryBudget = bytes
        }
        // Without a report file the conflicts go to standard error as
        // text: a form asked for would be silently dropped.
        if arguments["report-format"] != nil && arguments["report-file"] == nil {
            throw .usageOptionNeeds("--report-format", "--report-file")
        }
        try OutputFile.refuseInputs([output, arguments["report-file"]], inputs: ReportOptions.inputs(arguments))
        let format = arguments["report-format"].flatMap(MergeReportFormat.init(rawValue:)) ?? .text
        let quiet = arguments.flag("quiet")
        // The report's file is opened first, so a wrong path fails at once.
        let reportFile = try arguments["report-file"].flatMap { (path) throws(FerryError) -> OutputFile? in
            path == "-" ? nil : try OutputFile(path: path, overwrite: options.overwrite)
        }
        func render(_ report: MergeReport) -> String {
            format.render(report, catalog: console.catalog, tool: ("ferry", FerryCLI.version))
        }
        let report: MergeReport
        do throws(FerryError) {
            report = try Merger(registry: registry).merge(arguments.positionals, into: output, options: options)
            for warning in report.warnings { console.report(warning) }
            // Rendered only when asked for: the conflicts' lines of the
            // report on standard error are made below.
            if let reportFile {
                try reportFile.output.write(Array(render(report).utf8))
                try reportFile.commit()
            } else if arguments["report-file"] == "-" {
                console.write(render(report))
            }
        } catch {
            reportFile?.discard()
            throw error
        }
        let lines = MergeTextReport(report: report, catalog: console.catalog)
        // Without a report file, the conflicts and the summary go to standard error.
        if arguments["report-file"] == nil && !quiet {
            // In one write: a merge may have thousands.
            let conflicts = lines.conflictLines(shown: shown)
            if !conflicts.isEmpty { console.writeError(conflicts.joined(separator: "\n") + "\n") }
        }
        if !quiet { console.printError(lines.summary) }
        guard report.written else {
            console.report(FerryError.mergeConflicts(report.conflictsResolved, output: output))
            return ExitStatus.invalidData
        }
        return ExitStatus.success
    }

    /// The conflicts standard error lists (`--show-conflicts N|all`): 100
    /// unless told, nil for every one.
    static func shownConflicts(_ arguments: ParsedArguments) throws(FerryError) -> Int? {
        guard let text = arguments["show-conflicts"] else { return defaultShownConflicts }
        if text == "all" { return nil }
        guard let count = Int(text), count >= 0 else {
            throw .usageInvalidValue(option: "show-conflicts", value: text, expected: .message(.expectedCount))
        }
        return count
    }

    /// A screenful or two; the report file has them all.
    static let defaultShownConflicts = 100

    /// A size in bytes: digits, optionally followed by K, M or G (powers
    /// of 1,024, any case, with an optional `iB` or `B`).
    static func byteSize(_ text: String) -> Int? {
        var digits = Substring(text)
        var unit = 1
        for (suffix, scale) in [("g", 1 << 30), ("m", 1 << 20), ("k", 1 << 10)] {
            for spelling in [suffix + "ib", suffix + "b", suffix] where digits.lowercased().hasSuffix(spelling) {
                digits = digits.dropLast(spelling.count)
                unit = scale
                break
            }
            if unit != 1 { break }
        }
        guard let number = Int(digits), number > 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit)
        return overflow ? nil : bytes
    }
}

extension String {
    /// The text without spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
