import FerryKit

/// `ferry remove <file> <record>`: removes one record.
struct RemoveCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        CommandSpec(
            name: "remove", abstractKey: .removeAbstract,
            arguments: EditOptions.fileAndRecord,
            options: EditOptions.specs(registry: registry, changes: false, selects: true),
            examples: [
                Example(command: "ferry remove products.csv 3", key: .exampleRemove),
                Example(command: "ferry remove books.json 'Dune / Frank Herbert'", key: .exampleRemoveKey),
            ])
    }

    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) {
        let file = try EditOptions.open(arguments, registry: registry)
        let index = try file.remove(arguments.positionals[1], key: EditOptions.key(arguments))
        try file.save()
        EditOptions.done(.editRemoved, file: file, index: index, arguments: arguments, console: console)
    }
}
