#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryKit

/// The `ferry` command line, as a library: a package that adds codecs can
/// ship its own `ferry` by calling `FerryCLI.main(registry:)` with its registry.
public enum FerryCLI {
    public static let version = "0.1.0"

    /// Runs the command line and exits with its status.
    public static func main(registry: CodecRegistry = .standard) -> Never {
        TemporaryFiles.removeOnSignals()
        // Readers and writers recurse once a nesting level; the main thread's
        // stack is too small for the deepest nesting `--max-depth` allows.
        let arguments = Array(CommandLine.arguments.dropFirst())
        let status = LargeStackThread.run { run(arguments, registry: registry) }
        TemporaryFiles.waitForSignalCleanup()
        exit(status)
    }

    /// Runs the command line on `arguments` (without the program name).
    /// - Parameter environment: the variables that choose the language; the
    ///   process's own when nil.
    /// - Returns: the exit status.
    public static func run(
        _ arguments: [String], registry: CodecRegistry = .standard, environment: [String: String]? = nil
    ) -> Int32 {
        run(
            arguments, registry: registry, environment: environment ?? Messages.processEnvironment(),
            tables: Messages.builtInTables, streams: .standard)
    }

    /// `run`, choosing among the catalogs `tables` and printing to `streams`.
    static func run(
        _ arguments: [String], registry: CodecRegistry, environment: [String: String],
        tables: [String: [String: String]], streams: Console.Streams
    ) -> Int32 {
        let commands = commands(registry: registry)
        // `--lang` comes out before anything is parsed, so help and usage errors speak it too.
        let choice = LanguageOption.choose(
            arguments, commands: commands, environment: environment, available: Array(tables.keys))
        let console = Console(
            catalog: Messages.catalog(locale: choice.language, registry: registry, tables: tables), streams: streams)
        if let error = choice.error {
            let command = commands.first { $0.name == choice.arguments.first }
            return usageFailure(error, command: command, commands: commands, console: console)
        }
        let arguments = choice.arguments
        let help = HelpFormatter(catalog: console.catalog, program: program, languages: tables.keys.sorted())
        guard let first = arguments.first else {
            console.printError(help.overview(commands: commands))
            return ExitStatus.usage
        }
        switch first {
        case "--help", "-h":
            console.print(help.overview(commands: commands))
            return ExitStatus.success
        case "--version":
            console.print("\(program) \(version)")
            return ExitStatus.success
        case "help":
            guard arguments.count > 1 else {
                console.print(help.overview(commands: commands))
                return ExitStatus.success
            }
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return usageFailure(
                    FerryError(.usageUnknownCommand, [.string(arguments[1])]), command: nil, commands: commands,
                    console: console)
            }
            console.print(help.help(for: command))
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            // `ferry --bogus` is an option ferry does not know, not a subcommand.
            let error =
                first.hasPrefix("-") && first != "-"
                ? FerryError(.usageUnknownOption, [.string(first), .string(program)])
                : FerryError(.usageUnknownCommand, [.string(first)])
            return usageFailure(error, command: nil, commands: commands, console: console)
        }
        do throws(FerryError) {
            let parsed = try command.parse(Array(arguments.dropFirst()))
            if parsed.flag("help") {
                console.print(help.help(for: command))
                return ExitStatus.success
            }
            // The codecs typed by the flags, as a library caller types
            // them (`CSVCodec(dialect:)`…): a bad value stops here, before
            // a file is opened.
            let registry = try registry.configured(by: CodecOptions.values(parsed, registry: registry))
            switch command.name {
            case "convert":
                try ConvertCommand.run(parsed, registry: registry, console: console)
                return ExitStatus.success
            case "merge":
                return try MergeCommand.run(parsed, registry: registry, console: console)
            case "validate":
                return try ValidateCommand.run(parsed, registry: registry, console: console)
            case "plan":
                try PlanCommand.run(parsed, registry: registry, console: console)
                return ExitStatus.success
            case "lint":
                return try LintCommand.run(parsed, registry: registry, console: console)
            case "inspect":
                return try InspectCommand.run(parsed, registry: registry, console: console)
            case "schema":
                try SchemaCommand.run(parsed, registry: registry, console: console)
                return ExitStatus.success
            case "list":
                let width = streams.outputIsTerminal ? TextTable.terminalWidth(environment: environment) : nil
                try ListCommand.run(parsed, registry: registry, console: console, width: width)
                return ExitStatus.success
            case "add":
                try AddCommand.run(parsed, registry: registry, console: console)
                return ExitStatus.success
            case "edit":
                try EditCommand.run(parsed, registry: registry, console: console)
                return ExitStatus.success
            case "remove":
                try RemoveCommand.run(parsed, registry: registry, console: console)
                return ExitStatus.success
            default:
                FormatsCommand.run(registry: registry, console: console)
                return ExitStatus.success
            }
        } catch {
            if error.code.category == .usage {
                return usageFailure(error, command: command, commands: commands, console: console)
            }
            return fail(error, console: console)
        }
    }

    /// The subcommands, in the order help lists them.
    static func commands(registry: CodecRegistry) -> [CommandSpec] {
        [
            ConvertCommand.spec(registry: registry), MergeCommand.spec(registry: registry),
            ValidateCommand.spec(registry: registry), SchemaCommand.spec(registry: registry),
            LintCommand.spec(registry: registry),
            InspectCommand.spec(registry: registry), PlanCommand.spec(registry: registry),
            ListCommand.spec(registry: registry), AddCommand.spec(registry: registry),
            EditCommand.spec(registry: registry), RemoveCommand.spec(registry: registry),
            FormatsCommand.spec,
        ]
    }

    /// Parses a command line as `run` does, `--lang` and option values included, without
    /// running anything; the fuzzer drives the parser through it.
    /// - Returns: the subcommand's name.
    /// - Throws: the `usage.*` errors `run` would report.
    public static func parse(_ arguments: [String], registry: CodecRegistry = .standard) throws(FerryError) -> String {
        let commands = commands(registry: registry)
        let choice = LanguageOption.choose(
            arguments, commands: commands, environment: [:], available: Messages.languages)
        if let error = choice.error { throw error }
        let arguments = choice.arguments
        let name = arguments.first ?? ""
        guard let command = commands.first(where: { $0.name == name }) else {
            throw name.hasPrefix("-") && name != "-"
                ? FerryError(.usageUnknownOption, [.string(name), .string(program)])
                : FerryError(.usageUnknownCommand, [.string(name)])
        }
        let parsed = try command.parse(Array(arguments.dropFirst()))
        if command.options.contains(where: { $0.name == "max-depth" }) { _ = try CodecOptions.limits(parsed) }
        if command.options.contains(where: { $0.name == "jobs" }) { _ = try CodecOptions.positive(parsed, "jobs") }
        return command.name
    }

    /// Reports a usage error, then what a misspelt word may have meant, then
    /// where help is: the subcommand's, or the top level's.
    private static func usageFailure(
        _ error: FerryError, command: CommandSpec?, commands: [CommandSpec], console: Console
    ) -> Int32 {
        let status = fail(error, console: console)
        if let suggestion = Suggestion.forError(error, command: command, commands: commands) {
            console.printError(console.catalog.message(.cliDidYouMean, [.string(suggestion)]))
        }
        let help = command.map { "\(program) help \($0.name)" } ?? "\(program) --help"
        console.printError(console.catalog.message(.cliUsageHint, [.string(help)]))
        return status
    }

    /// The command's name, in help and `--version`.
    static let program = "ferry"

    private static func fail(_ error: FerryError, console: Console) -> Int32 {
        console.report(error)
        return ExitStatus.of(error)
    }
}
