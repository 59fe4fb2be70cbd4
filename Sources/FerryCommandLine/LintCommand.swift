import FerryKit

/// `ferry lint <input>...`: checks that files are well formed.
struct LintCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        CommandSpec(
            name: "lint", abstractKey: .lintAbstract,
            arguments: [ArgumentSpec(name: "input", helpKey: .lintArgumentInput, isRepeating: true)],
            options: [
                OptionSpec(
                    name: "from", short: "f", valueName: "format", helpKey: .lintOptionFrom,
                    allowed: registry.codecs.map(\.id)),
            ] + CodecOptions.limitSpecs + [.quiet, .help])
    }

    /// Checks every file, reporting each problem.
    /// - Returns: the exit status: the worst of the files'.
    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) -> Int32 {
        let limits = try CodecOptions.limits(arguments)
        let linter = Linter(registry: registry)
        var status = ExitStatus.success
        for path in arguments.positionals {
            do throws(FerryError) {
                let format = try linter.lint(path, from: arguments["from"], limits: limits)
                if !arguments.flag("quiet") {
                    console.print(console.catalog.message(.lintOK, [.path(path), .string(format)]))
                }
            } catch {
                console.report(error)
                status = max(status, ExitStatus.of(error))
            }
        }
        return status
    }
}
