import FerryKit

/// `ferry add <file> --set FIELD=VALUE …`: adds a record after the last one.
struct AddCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        CommandSpec(
            name: "add", abstractKey: .addAbstract,
            arguments: [ArgumentSpec(name: "file", helpKey: .editArgumentFile)],
            options: EditOptions.specs(registry: registry, changes: true, selects: false),
            examples: [
                Example(command: "ferry add products.csv --set name=PS5 --set price=499", key: .exampleAdd),
                Example(command: "ferry add products.json --set name=PS5 --photo ps5.png", key: .exampleAddPhoto),
            ])
    }

    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) {
        let change = try EditOptions.change(arguments)
        let file = try EditOptions.open(arguments, registry: registry)
        let index = try file.add(change)
        try file.save()
        EditOptions.done(.editAdded, file: file, index: index, arguments: arguments, console: console)
    }
}
