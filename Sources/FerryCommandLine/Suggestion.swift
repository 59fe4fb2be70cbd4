import FerryKit

/// The command line's "did you mean": what it offers at each place, for
/// the engine in FerryCore (`Suggestion.nearest`), which the library's
/// option checks use too.
extension Suggestion {
    /// What a usage error's misspelt word may have meant, from what the
    /// command line offers there.
    /// - Parameters:
    ///   - error: a `usage.*` error from parsing.
    ///   - command: the subcommand parsed, or nil at the top level.
    ///   - commands: every subcommand.
    static func forError(_ error: FerryError, command: CommandSpec?, commands: [CommandSpec]) -> String? {
        guard case .string(let word)? = error.arguments.first else { return nil }
        switch error.code {
        case .usageUnknownCommand:
            return nearest(word, among: commands.map(\.name) + ["help"])
        case .usageUnknownOption:
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if let command, let new = renamed[command.name]?[name] { return new }
            let options = command.map { $0.options.map { "--" + $0.name } } ?? topLevelOptions
            return nearest(name, among: options + ["--lang"])
        case .usageInvalidValue:
            guard error.arguments.count > 1, case .string(let value) = error.arguments[1],
                let option = command?.options.first(where: { "--" + $0.name == word }),
                let allowed = option.allowed
            else { return nil }
            return nearest(value, among: allowed + option.aliases.keys.sorted())
        default:
            return nil
        }
    }

    /// Old spellings of options, by subcommand, with the new: `--report`
    /// was a form in `validate` and a file in `merge`, and `--output` the
    /// report's file in `validate`. They are refused, and this names the
    /// spelling that replaced each.
    static let renamed: [String: [String: String]] = {
        let checks = ["--report": "--report-format", "--output": "--report-file"]
        let forms = ["--report": "--report-format"]
        return [
            "validate": checks, "lint": checks, "plan": forms, "inspect": forms, "list": forms,
            "merge": ["--report": "--report-file", "-r": "--report-file"],
        ]
    }()

    /// The options `ferry` takes before a subcommand.
    static let topLevelOptions = ["--help", "--version", "--lang"]
}
