import FerryKit

/// Renders help from a command's spec and the message catalog.
struct HelpFormatter {
    let catalog: MessageCatalog
    let program: String
    /// The languages `--lang` takes.
    let languages: [String]

    func help(for command: CommandSpec) -> String {
        var text = catalog.message(command.abstractKey) + "\n\n"
        text += catalog.message(.helpUsage) + "\n  " + usage(command) + "\n"
        if !command.arguments.isEmpty {
            text += "\n" + catalog.message(.helpArguments) + "\n"
            text += table(command.arguments.map { ("<\(placeholder($0.name))>", catalog.message($0.helpKey)) })
        }
        text += "\n" + catalog.message(.helpOptions) + "\n"
        text += table(options(command).map { (optionLabel($0), optionHelp($0)) })
        if !command.examples.isEmpty {
            text += "\n" + catalog.message(.helpExamples) + "\n"
            for example in command.examples {
                text += "  $ " + example.command + "\n"
                text += wrap(catalog.message(example.key), indent: 6)
            }
        }
        text += "\n" + exitStatus()
        return text
    }

    /// A placeholder as the reader's language has it (`<Datei>`), from the
    /// catalog's `placeholder.<name>`; a name without one stays as it is.
    func placeholder(_ name: String) -> String {
        catalog.template("placeholder." + name) ?? name
    }

    func usage(_ command: CommandSpec) -> String {
        var parts = ["\(program) \(command.name)"]
        for argument in command.arguments {
            var word = "<\(placeholder(argument.name))>"
            if argument.isRepeating { word += " ..." }
            parts.append(argument.isOptional ? "[\(word)]" : word)
        }
        parts.append("[\(catalog.message(.helpOptionsPlaceholder))]")
        return parts.joined(separator: " ")
    }

    /// The help shown by `ferry --help`: what Ferry is and its subcommands.
    func overview(commands: [CommandSpec]) -> String {
        var text = catalog.message(.cliAbstract) + "\n\n"
        text += catalog.message(.helpUsage) + "\n  \(program) <\(catalog.message(.helpSubcommandPlaceholder))>\n\n"
        text += catalog.message(.helpSubcommands) + "\n"
        text += table(commands.map { ($0.name, catalog.message($0.abstractKey)) })
        text += "\n" + catalog.message(.helpOptions) + "\n"
        let language = LanguageOption.spec(languages: languages)
        text += table([
            (optionLabel(language), optionHelp(language)),
            (optionLabel(.help), catalog.message(.optionHelp)),
            ("--version", catalog.message(.optionVersion)),
        ])
        text += "\n" + catalog.message(.cliSeeAlso, [.string(program)]) + "\n"
        text += "\n" + exitStatus()
        return text
    }

    private func exitStatus() -> String {
        catalog.message(.helpExitStatus) + "\n"
            + table(
                zip(0..., [MessageKey.exit0, .exit1, .exit2, .exit3]).map { status, key in
                    (String(status), catalog.message(key))
                })
    }

    /// The command's options with `--lang`, which every command takes,
    /// before `--help`.
    private func options(_ command: CommandSpec) -> [OptionSpec] {
        var options = command.options
        let position = options.firstIndex { $0.name == OptionSpec.help.name } ?? options.endIndex
        options.insert(LanguageOption.spec(languages: languages), at: position)
        return options
    }

    private func optionLabel(_ option: OptionSpec) -> String {
        var label = option.short.map { "-\($0), " } ?? "    "
        label += "--" + option.name
        if let valueName = option.valueName { label += " <\(placeholder(valueName))>" }
        return label
    }

    private func optionHelp(_ option: OptionSpec) -> String {
        var text = catalog.message(option.helpKey)
        if let allowed = option.allowed {
            let values = allowed + option.aliases.keys.sorted()
            text += " " + catalog.message(.helpValues, [.string(values.joined(separator: " "))])
        }
        return text
    }

    /// `text` wrapped at 80 columns, each line indented by `indent` spaces.
    private func wrap(_ text: String, indent: Int) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = margin
        for word in text.split(separator: " ") {
            if current.count > indent && current.count + 1 + word.count > 80 {
                lines.append(current)
                current = margin
            }
            current += (current.count > indent ? " " : "") + word
        }
        lines.append(current)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Two columns, the second aligned and wrapped at 80 columns.
    private func table(_ rows: [(String, String)]) -> String {
        let width = min(max(rows.map(\.0.count).max() ?? 0, 8) + 4, 34)
        var text = ""
        for (left, right) in rows {
            var line = "  " + left
            if line.count + 2 > width {
                text += line + "\n"
                line = ""
            }
            line += String(repeating: " ", count: max(width - line.count, 0))
            let words = right.split(separator: " ")
            var current = line
            var lineHasWords = false
            for word in words {
                if lineHasWords && current.count + 1 + word.count > 80 {
                    text += current + "\n"
                    current = String(repeating: " ", count: width)
                    lineHasWords = false
                }
                current += (lineHasWords ? " " : "") + word
                lineHasWords = true
            }
            text += current + "\n"
        }
        return text
    }
}
