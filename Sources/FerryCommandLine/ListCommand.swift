import FerryKit

/// `ferry list <file>`: a table of the records: number, key, main fields and
/// photo; `--report-format json` for programs.
struct ListCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        var options = [
            OptionSpec(name: "report-format", valueName: "format", helpKey: .listOptionReport, allowed: ["text", "json"])
        ]
        options += EditOptions.specs(registry: registry, changes: false, selects: true).filter { $0.name != "help" }
        options.append(.help)
        return CommandSpec(
            name: "list", abstractKey: .listAbstract,
            arguments: [ArgumentSpec(name: "file", helpKey: .listArgumentFile)],
            options: options,
            examples: [
                Example(command: "ferry list products.csv", key: .exampleList),
                Example(command: "ferry list Products.plist --report-format json", key: .exampleListJSON),
            ])
    }

    static func run(
        _ arguments: ParsedArguments, registry: CodecRegistry, console: Console, width: Int?
    ) throws(FerryError) {
        let file = try EditOptions.open(arguments, registry: registry, forEditing: false)
        let listing = RecordListing(file, key: EditOptions.key(arguments))
        if arguments["report-format"] == "json" {
            console.print(try listing.json())
            return
        }
        let catalog = console.catalog
        let key = listing.showsKeyColumn
        let table = TextTable(
            header: [catalog.message(.listColumnIndex)] + (key ? [catalog.message(.listColumnKey)] : []) + listing.columns
                + [catalog.message(.listColumnPhoto)],
            rows: listing.rows.map { row in
                [String(row.number)] + (key ? [row.key ?? ""] : []) + row.cells + [photo(row.photo, catalog: catalog)]
            })
        console.write(bytes: table.render(fittingIn: width))
    }

    /// A photo as a cell: `png, 1,234 B`, its reference, or nothing.
    static func photo(_ photo: RecordListing.PhotoSummary?, catalog: MessageCatalog) -> String {
        switch photo {
        case .bytes(let type, let count)?:
            catalog.message(.listPhotoBytes, count: count, [.string(type.fileExtension), .count(count)])
        case .reference(let reference)?: reference
        case nil: ""
        }
    }
}
