import FerryKit

/// `--lang <language>`, which the top level and every subcommand take.
///
/// It is taken out of the command line before anything else is parsed, and
/// the catalog chosen from it, so that help and usage errors (an unknown
/// option before it, say) come in the language it asks for. Without it the
/// environment decides (`Messages.language(override:environment:available:)`).
enum LanguageOption {
    /// What the command line and the environment chose.
    struct Choice {
        /// The language to speak: from `--lang` when it is valid, else from the environment.
        var language: String
        /// The command line without `--lang` and its value.
        var arguments: [String]
        /// Why `--lang` is wrong (`usage.invalidValue` listing the
        /// languages, or `usage.missingValue`), to report in `language`.
        var error: FerryError?
    }

    /// The option as help shows it, with the languages that have a catalog.
    static func spec(languages: [String]) -> OptionSpec {
        OptionSpec(name: "lang", valueName: "language", helpKey: .optionLang, allowed: languages)
    }

    /// Takes `--lang L` and `--lang=L` out of `arguments` (the last one
    /// counts) and chooses the language.
    ///
    /// Words after `--` are arguments, and so is the value of another of the
    /// subcommand's options (`--delimiter --lang` is a delimiter).
    /// - Parameters:
    ///   - commands: the subcommands, to know which options take a value.
    ///   - available: the languages that have a catalog.
    static func choose(
        _ arguments: [String], commands: [CommandSpec], environment: [String: String], available: [String]
    ) -> Choice {
        var remaining: [String] = []
        var value: String?
        var command: CommandSpec?
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" {
                remaining += arguments[(index - 1)...]
                break
            }
            if word == "--lang" {
                guard index < arguments.count else {
                    let language = (try? Messages.language(environment: environment, available: available)) ?? "en"
                    return Choice(
                        language: language, arguments: remaining,
                        error: FerryError(.usageMissingValue, [.string("--lang")]))
                }
                value = arguments[index]
                index += 1
                continue
            }
            if word.hasPrefix("--lang=") {
                value = String(word.dropFirst("--lang=".count))
                continue
            }
            remaining.append(word)
            if let command {
                let option = command.options.first { "--" + $0.name == word || $0.short.map { "-\($0)" } == word }
                if option?.valueName != nil, index < arguments.count {
                    remaining.append(arguments[index])
                    index += 1
                }
            } else if !word.hasPrefix("-") {
                command = commands.first { $0.name == word }
            }
        }
        do throws(FerryError) {
            let language = try Messages.language(override: value, environment: environment, available: available)
            return Choice(language: language, arguments: remaining)
        } catch {
            let language = (try? Messages.language(environment: environment, available: available)) ?? "en"
            return Choice(language: language, arguments: remaining, error: error)
        }
    }
}
