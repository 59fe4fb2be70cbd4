import FerryKit

/// What a subcommand accepts: its positional arguments and options. Help
/// text is never stored here, only catalog keys.
struct CommandSpec {
    let name: String
    let abstractKey: MessageKey
    var arguments: [ArgumentSpec]
    var options: [OptionSpec]
    /// Command lines help shows, each with what it does.
    var examples: [Example] = []
}

/// A command line to copy, and the catalog key of what it does.
struct Example {
    let command: String
    let key: MessageKey
}

struct ArgumentSpec {
    let name: String
    let helpKey: MessageKey
    var isOptional = false
    var isRepeating = false
}

struct OptionSpec {
    /// The long name without dashes.
    let name: String
    var short: Character?
    /// The value placeholder, or nil for a flag.
    var valueName: String?
    let helpKey: MessageKey
    /// The values allowed, when the set is closed; matched without regard
    /// to case, and stored as spelt here.
    var allowed: [String]?
    /// Other names for allowed values (`xml1` for `plist-xml`), lowercased.
    var aliases: [String: String] = [:]
    /// Whether the option may be given more than once (`--set`); every
    /// value is kept, in order (`ParsedArguments.all`).
    var repeats = false

    static let help = OptionSpec(name: "help", short: "h", helpKey: .optionHelp)
    static let quiet = OptionSpec(name: "quiet", short: "q", helpKey: .optionQuiet)
    /// `--jobs N` of `convert`, `validate` and `merge`: the cores to use.
    static let jobs = OptionSpec(name: "jobs", short: "j", valueName: "n", helpKey: .convertOptionJobs)

    /// An option that names a format (`--from`, `--to`): a codec's id or alias.
    static func format(
        _ name: String, short: Character? = nil, helpKey: MessageKey, registry: CodecRegistry
    ) -> OptionSpec {
        var aliases: [String: String] = [:]
        for codec in registry.codecs {
            for alias in codec.aliases { aliases[alias.lowercased()] = codec.id }
        }
        return OptionSpec(
            name: name, short: short, valueName: "format", helpKey: helpKey, allowed: registry.codecs.map(\.id),
            aliases: aliases)
    }

    /// The allowed value `value` names, whatever its case, or nil.
    func canonicalValue(_ value: String) -> String? {
        guard let allowed else { return value }
        let folded = value.lowercased()
        return allowed.first { $0.lowercased() == folded } ?? aliases[folded]
    }
}

/// The arguments of one run, after parsing.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    /// Every value of each repeating option, in order.
    var lists: [String: [String]] = [:]

    func flag(_ name: String) -> Bool { flags.contains(name) }
    subscript(name: String) -> String? { values[name] }
    /// Every value given to a repeating option, in order.
    func all(_ name: String) -> [String] { lists[name] ?? [] }
}

// MARK: - Usage errors

extension FerryError.Code {
    static let usageUnknownCommand = Self("usage.unknownCommand", .usage)
    static let usageUnknownOption = Self("usage.unknownOption", .usage)
    static let usageMissingValue = Self("usage.missingValue", .usage)
    static let usageMissingArgument = Self("usage.missingArgument", .usage)
    static let usageUnexpectedArgument = Self("usage.unexpectedArgument", .usage)
    static let usageConflictingOptions = Self("usage.conflictingOptions", .usage)
    /// An option that means nothing without another (`--report-format`
    /// without `--report-file` in `merge`).
    static let usageOptionNeeds = Self("usage.optionNeeds", .usage)
}

extension FerryError {
    /// `option` was given without `needed`, which it needs.
    static func usageOptionNeeds(_ option: String, _ needed: String) -> FerryError {
        FerryError(.usageOptionNeeds, [.string(option), .string(needed)])
    }
}

// MARK: - Parsing

extension CommandSpec {
    /// Parses the words after the subcommand's name.
    ///
    /// Options may come before, between or after the arguments, as `--name
    /// value`, `--name=value` or `-n value`; `--` ends the options; a lone `-`
    /// is an argument (standard input or output).
    /// - Throws: the `usage.*` errors.
    func parse(_ words: [String]) throws(FerryError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name: Substring
            var inlineValue: String?
            if word.hasPrefix("--") {
                name = word.dropFirst(2)
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = name[..<equals]
                }
            } else {
                name = word.dropFirst()
            }
            let option =
                word.hasPrefix("--")
                ? options.first { $0.name == name }
                : options.first { name.count == 1 && $0.short == name.first }
            guard let option else { throw FerryError(.usageUnknownOption, [.string(word), .string(self.name)]) }
            guard option.valueName != nil else {
                if inlineValue != nil { throw FerryError(.usageUnexpectedArgument, [.string(word)]) }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else { throw FerryError(.usageMissingValue, [.string("--" + option.name)]) }
                value = words[index]
                index += 1
            }
            guard let canonical = option.canonicalValue(value) else {
                let allowed = option.allowed ?? []
                throw .usageInvalidValue(option: option.name, value: value, expected: .string(allowed.joined(separator: ", ")))
            }
            parsed.values[option.name] = canonical
            if option.repeats { parsed.lists[option.name, default: []].append(canonical) }
        }
        if !parsed.flag("help") { try checkArguments(parsed.positionals) }
        return parsed
    }

    private func checkArguments(_ positionals: [String]) throws(FerryError) {
        let required = arguments.filter { !$0.isOptional }.count
        if positionals.count < required {
            throw FerryError(.usageMissingArgument, [.string("<\(arguments[positionals.count].name)>"), .string(name)])
        }
        if !arguments.contains(where: \.isRepeating) && positionals.count > arguments.count {
            throw FerryError(.usageUnexpectedArgument, [.string(positionals[arguments.count])])
        }
    }
}
