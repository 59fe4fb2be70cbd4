import FerryKit

/// `ferry lint <input>...`: checks that files are well formed, and reports
/// every problem it can read past, as `validate` does.
struct LintCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        CommandSpec(
            name: "lint", abstractKey: .lintAbstract,
            arguments: [ArgumentSpec(name: "input", helpKey: .lintArgumentInput, isRepeating: true)],
            options: ReportOptions.specs(
                around: [
                    OptionSpec.format("from", short: "f", helpKey: .lintOptionFrom, registry: registry)
                ], registry: registry),
            examples: [
                Example(command: "ferry lint *.json *.plist", key: .exampleLint),
                Example(command: "ferry lint data/* --report-format github", key: .exampleLintAnnotations),
            ])
    }

    /// Checks every file and writes the report.
    /// - Returns: the exit status: the worst of the files'.
    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) -> Int32 {
        let options = try ReportOptions.validationOptions(arguments, registry: registry)
        return try ReportOptions.run(arguments, console: console) {
            Linter(registry: registry).lint(arguments.positionals, options: options)
        }
    }
}
