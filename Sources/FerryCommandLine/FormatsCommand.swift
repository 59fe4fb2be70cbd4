import FerryKit

/// `ferry formats`: the registered codecs and what each can do.
struct FormatsCommand {
    static let spec = CommandSpec(
        name: "formats", abstractKey: .formatsAbstract, arguments: [], options: [.help],
        examples: [Example(command: "ferry formats", key: .exampleFormats)])

    static func run(registry: CodecRegistry, console: Console) {
        let catalog = console.catalog
        var rows: [[String]] = [[
            catalog.message(.formatsColumnID), catalog.message(.formatsColumnExtensions),
            catalog.message(.formatsColumnRead), catalog.message(.formatsColumnWrite),
            catalog.message(.formatsColumnOptions),
        ]]
        let yes = catalog.message(.formatsYes)
        let no = catalog.message(.formatsNo)
        for codec in registry.codecs {
            rows.append([
                codec.id,
                codec.extensions.map { "." + $0 }.joined(separator: " "),
                codec.capabilities.contains(.read) ? yes : no,
                codec.capabilities.contains(.write) ? yes : no,
                codec.options.map { "--" + $0.name }.joined(separator: " "),
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            var line = cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            console.print(line)
        }
        console.print("")
        console.print(catalog.message(.formatsGzip))
    }
}
