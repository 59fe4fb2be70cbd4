import FerryKit

/// `ferry validate <input>...`: checks records against their kind's rules
/// and reports every problem, for people or for CI.
struct ValidateCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        var options = [
            OptionSpec(
                name: "from", short: "f", valueName: "format", helpKey: "validate.option.from",
                allowed: registry.codecs.map(\.id)),
            OptionSpec(
                name: "kind", short: "k", valueName: "kind", helpKey: "validate.option.kind",
                allowed: RecordKind.allCases.map(\.rawValue)),
            OptionSpec(
                name: "report", short: "r", valueName: "format", helpKey: "validate.option.report",
                allowed: ReportFormat.allCases.map(\.rawValue)),
            OptionSpec(name: "output", short: "o", valueName: "file", helpKey: "validate.option.output"),
            OptionSpec(name: "max-errors", valueName: "n", helpKey: "validate.option.maxErrors"),
            OptionSpec(name: "force", helpKey: "validate.option.force"),
        ] + CodecOptions.limitSpecs
        options += CodecOptions.specs(registry: registry, taken: Set(options.map(\.name)), applying: .read)
        options += [.quiet, .help]
        return CommandSpec(
            name: "validate", abstractKey: "validate.abstract",
            arguments: [ArgumentSpec(name: "input", helpKey: "validate.argument.input", isRepeating: true)],
            options: options)
    }

    /// Checks the files and writes the report.
    /// - Returns: 0 when every record is valid, 1 when one is not, 3 when a
    ///   file could not be read.
    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) -> Int32 {
        var options = ValidationOptions()
        options.from = arguments["from"]
        options.kind = arguments["kind"].flatMap(RecordKind.init(rawValue:))
        options.limits = try CodecOptions.limits(arguments)
        options.codecOptions = CodecOptions.values(arguments, registry: registry)
        if let text = arguments["max-errors"] {
            guard let cap = Int(text), cap >= 0 else {
                throw .usageInvalidValue(option: "max-errors", value: text, expected: .message("expected.count"))
            }
            options.maxErrors = cap == 0 ? nil : cap
        }
        let format = arguments["report"].flatMap(ReportFormat.init(rawValue:)) ?? .text
        // Open the output before the work, so a wrong path fails at once.
        let file = try arguments["output"].flatMap { (path) throws(FerryError) -> OutputFile? in
            path == "-" ? nil : try OutputFile(path: path, overwrite: arguments.flag("force"))
        }

        let report = Validator(registry: registry).validate(arguments.positionals, options: options)
        var text = format.render(report, formatter: console.formatter, tool: ("ferry", FerryCLI.version))
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        if let file {
            do throws(FerryError) {
                try file.output.write(Array(text.utf8))
                try file.commit()
            } catch {
                file.discard()
                throw error
            }
            // Whoever reads the file in CI still sees the outcome here.
            if !arguments.flag("quiet") && format != .text {
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
