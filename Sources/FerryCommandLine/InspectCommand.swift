import FerryKit

/// `ferry inspect <input>...`: what a file holds — format, kind, records,
/// fields, photos, and for a keyed archive its objects and classes.
struct InspectCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        var options = [
            OptionSpec.format("from", short: "f", helpKey: .lintOptionFrom, registry: registry),
            OptionSpec(name: "report-format", valueName: "format", helpKey: .inspectOptionReport, allowed: ["text", "json"]),
        ]
        options += CodecOptions.limitSpecs
        options += CodecOptions.specs(registry: registry, taken: Set(options.map(\.name)), applying: .read)
        options.append(.help)
        return CommandSpec(
            name: "inspect", abstractKey: .inspectAbstract,
            arguments: [ArgumentSpec(name: "input", helpKey: .inspectArgumentInput, isRepeating: true)],
            options: options,
            examples: [
                Example(command: "ferry inspect Legacy.archive", key: .exampleInspect),
                Example(command: "ferry inspect *.json --report-format json", key: .exampleInspectJSON),
            ])
    }

    /// Describes every file; a file that cannot be read is reported and the
    /// others still are.
    /// - Returns: the worst exit status of the files.
    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) -> Int32 {
        let limits = try CodecOptions.limits(arguments)
        let options = CodecOptions.values(arguments, registry: registry)
        let inspector = Inspector(registry: registry)
        var status = ExitStatus.success
        for path in arguments.positionals {
            do throws(FerryError) {
                let inspection = try inspector.inspect(path, from: arguments["from"], options: options, limits: limits)
                for warning in inspection.warnings { console.report(warning) }
                if arguments["report-format"] == "json" {
                    console.print(try json(inspection))
                } else {
                    console.print(text(inspection, catalog: console.catalog))
                }
            } catch {
                console.report(error)
                status = max(status, ExitStatus.of(error))
            }
        }
        return status
    }

    /// The report for people, one fact a line, labels from the catalog.
    static func text(_ inspection: Inspection, catalog: MessageCatalog) -> String {
        var lines = [inspection.file]
        func line(_ key: MessageKey, _ value: MessageArgument) {
            lines.append("  " + catalog.message(key, [value]))
        }
        let format =
            inspection.compressed
            ? catalog.message(.inspectCompressed, [.string(inspection.format)]) : inspection.format
        line(.inspectFormat, .string(format))
        line(.inspectKind, .string(inspection.kind.rawValue))
        line(.inspectRecords, .integer(inspection.records))
        line(.inspectFields, .string(inspection.fields.joined(separator: ", ")))
        line(.inspectPhotos, .integer(inspection.photos))
        if let objects = inspection.structure.objectCount { line(.inspectObjects, .integer(objects)) }
        if !inspection.structure.classes.isEmpty {
            let classes = inspection.structure.classes.map { entry in
                catalog.message(.inspectClassCount, [.string(entry.name), .integer(entry.count)])
            }
            line(.inspectClasses, .string(classes.joined(separator: ", ")))
        }
        if !inspection.structure.sheets.isEmpty {
            let sheets = inspection.structure.sheets.map { sheet in
                var notes: [String] = sheet.dimension.map { [$0] } ?? []
                if sheet.isRead { notes.append(catalog.message(.inspectSheetRead)) }
                switch sheet.state {
                case .hidden: notes.append(catalog.message(.inspectSheetHidden))
                case .veryHidden: notes.append(catalog.message(.inspectSheetVeryHidden))
                case .visible: break
                }
                if let rows = sheet.hiddenRows, rows > 0 { notes.append(catalog.message(.inspectHiddenRows, [.integer(rows)])) }
                return notes.isEmpty ? sheet.name : sheet.name + " (" + notes.joined(separator: ", ") + ")"
            }
            line(.inspectSheets, .string(sheets.joined(separator: ", ")))
        }
        if !inspection.structure.numberFormats.isEmpty {
            line(.inspectNumberFormats, .string(inspection.structure.numberFormats.joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }

    /// The report for programs: one JSON object a file, on one line.
    /// - Throws: nothing in practice; `JSONText.compact` refuses only
    ///   numbers that are not finite, and the report has none.
    static func json(_ inspection: Inspection) throws(FerryError) -> String {
        var report = OrderedObject()
        report.append(key: "file", value: .string(inspection.file))
        report.append(key: "format", value: .string(inspection.format))
        report.append(key: "compressed", value: .bool(inspection.compressed))
        report.append(key: "kind", value: .string(inspection.kind.rawValue))
        report.append(key: "records", value: .integer(Int64(inspection.records)))
        report.append(key: "fields", value: .array(inspection.fields.map(Value.string)))
        report.append(key: "photos", value: .integer(Int64(inspection.photos)))
        if let objects = inspection.structure.objectCount { report.append(key: "objects", value: .integer(Int64(objects))) }
        if !inspection.structure.classes.isEmpty {
            let classes = inspection.structure.classes.map { entry in
                Value.object(OrderedObject([("name", .string(entry.name)), ("count", .integer(Int64(entry.count)))]))
            }
            report.append(key: "classes", value: .array(classes))
        }
        if !inspection.structure.sheets.isEmpty {
            let sheets = inspection.structure.sheets.map { sheet in
                var object = OrderedObject([("name", .string(sheet.name))])
                object.append(key: "dimension", value: sheet.dimension.map(Value.string) ?? .null)
                object.append(key: "state", value: .string(sheet.state.rawValue))
                object.append(key: "read", value: .bool(sheet.isRead))
                if let rows = sheet.hiddenRows { object.append(key: "hiddenRows", value: .integer(Int64(rows))) }
                return Value.object(object)
            }
            report.append(key: "sheets", value: .array(sheets))
            report.append(key: "numberFormats", value: .array(inspection.structure.numberFormats.map(Value.string)))
        }
        return try JSONText.compact(.object(report))
    }
}
