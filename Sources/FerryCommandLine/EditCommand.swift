import FerryKit

/// `ferry edit <file> <record> --set FIELD=VALUE …`: changes one record of a
/// data file in place, keeping the file's format and layout.
struct EditCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        CommandSpec(
            name: "edit", abstractKey: .editAbstract,
            arguments: EditOptions.fileAndRecord,
            options: EditOptions.specs(registry: registry, changes: true, selects: true),
            examples: [
                Example(command: "ferry edit products.csv 2 --set price=449", key: .exampleEdit),
                Example(command: "ferry edit products.json Wii --photo wii.png", key: .exampleEditKey),
                Example(command: "ferry edit books.jsonl 1 --unset isbn", key: .exampleEditUnset),
            ])
    }

    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) {
        let change = try EditOptions.change(arguments)
        let file = try EditOptions.open(arguments, registry: registry)
        let index = try file.edit(arguments.positionals[1], key: EditOptions.key(arguments), change: change)
        try file.save()
        EditOptions.done(.editEdited, file: file, index: index, arguments: arguments, console: console)
    }
}

/// What `add`, `edit`, `remove` and `list` share: reading the file, the
/// selector's key, the changes, the closing line.
enum EditOptions {
    /// The arguments of a command that changes one record: the file, the record.
    static let fileAndRecord = [
        ArgumentSpec(name: "file", helpKey: .editArgumentFile),
        ArgumentSpec(name: "record", helpKey: .editArgumentRecord),
    ]

    /// The options of an editing command: reading ones always, `--key`
    /// when it selects records, the changes when it makes them.
    static func specs(registry: CodecRegistry, changes: Bool, selects: Bool) -> [OptionSpec] {
        var options: [OptionSpec] = []
        if changes {
            options += [
                OptionSpec(name: "set", valueName: "assignment", helpKey: .editOptionSet, repeats: true),
                OptionSpec(name: "unset", valueName: "field", helpKey: .editOptionUnset, repeats: true),
                OptionSpec(name: "photo", valueName: "file", helpKey: .editOptionPhoto),
                OptionSpec(name: "no-photo", helpKey: .editOptionNoPhoto),
            ]
        }
        if selects { options.append(OptionSpec(name: "key", valueName: "fields", helpKey: .editOptionKey)) }
        options += [
            OptionSpec.format("from", short: "f", helpKey: .editOptionFrom, registry: registry),
            OptionSpec(
                name: "kind", short: "k", valueName: "kind", helpKey: .editOptionKind,
                allowed: RecordKind.allCases.map(\.rawValue)),
            OptionSpec(name: "schema", short: "s", valueName: "file", helpKey: .editOptionSchema),
        ]
        options += CodecOptions.limitSpecs
        options += CodecOptions.specs(registry: registry, taken: Set(options.map(\.name)), applying: .read)
        return options + [.quiet, .help]
    }

    /// Reads the file the first argument names; `forEditing` false to list it.
    static func open(
        _ arguments: ParsedArguments, registry: CodecRegistry, forEditing: Bool = true
    ) throws(FerryError) -> EditedFile {
        try EditedFile(
            path: arguments.positionals[0], from: arguments["from"],
            kind: arguments["kind"].flatMap(RecordKind.init(rawValue:)), schema: try ReportOptions.schema(arguments),
            options: CodecOptions.values(arguments, registry: registry), limits: try CodecOptions.limits(arguments),
            registry: registry, forEditing: forEditing)
    }

    /// `--key`'s fields, or nil for the kind's default key.
    static func key(_ arguments: ParsedArguments) -> [String]? {
        arguments["key"].map { $0.split(separator: ",").map { String($0) } }
    }

    /// The change `--set`, `--unset`, `--photo` and `--no-photo` ask for.
    /// - Throws: `usage.conflictingOptions` for `--photo` with `--no-photo`;
    ///   `edit.invalidAssignment`; the photo's `io.*` and `photo.notImage`.
    static func change(_ arguments: ParsedArguments) throws(FerryError) -> RecordChange {
        var change = RecordChange()
        try change.assign(arguments.all("set"))
        change.removed = arguments.all("unset")
        change.removesPhoto = arguments.flag("no-photo")
        change.decimalComma = arguments.flag("decimal-comma")
        if let photo = arguments["photo"] {
            if change.removesPhoto {
                throw FerryError(.usageConflictingOptions, [.string("--photo"), .string("--no-photo")])
            }
            try change.readPhoto(photo, limit: try CodecOptions.limits(arguments).maxInputBytes)
        }
        return change
    }

    /// Says what was done, on standard error, unless `--quiet`: the record
    /// by its number (`index` + 1), as every message counts records.
    static func done(
        _ key: MessageKey, file: EditedFile, index: Int, arguments: ParsedArguments, console: Console
    ) {
        guard !arguments.flag("quiet") else { return }
        console.printError(console.catalog.message(key, [.path(file.path), .ungrouped(index + 1)]))
    }
}
