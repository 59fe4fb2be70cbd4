import FerryKit

/// `ferry schema infer <input>…`: a draft JSON Schema (2020-12) drawn from
/// the records of the inputs, on standard output or into `-o FILE`.
/// The work is `SchemaInference`'s; this reads the command line.
struct SchemaCommand {
    static let actions = ["infer"]

    static func spec(registry: CodecRegistry) -> CommandSpec {
        var options = [
            OptionSpec.format("from", short: "f", helpKey: .lintOptionFrom, registry: registry),
            OptionSpec(name: "output", short: "o", valueName: "file", helpKey: .schemaOptionOutput),
            OptionSpec(name: "force", helpKey: .schemaOptionForce),
            .jobs,
        ]
        options += CodecOptions.limitSpecs
        options += CodecOptions.specs(registry: registry, taken: Set(options.map(\.name)), applying: .read)
        options.append(.help)
        return CommandSpec(
            name: "schema", abstractKey: .schemaAbstract,
            arguments: [
                ArgumentSpec(name: "action", helpKey: .schemaArgumentAction),
                ArgumentSpec(name: "input", helpKey: .schemaArgumentInput, isRepeating: true),
            ],
            options: options,
            examples: [
                Example(
                    command: "ferry schema infer products.csv -o products.schema.json && "
                        + "ferry validate products.csv --schema products.schema.json",
                    key: .exampleSchemaInfer)
            ])
    }

    /// Writes the schema; the readers' warnings go to standard error.
    /// - Throws: `usage.invalidValue` for an action other than `infer`;
    ///   what reading an input or writing the output throws.
    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) {
        let action = arguments.positionals[0]
        guard actions.contains(action) else {
            throw FerryError(.usageInvalidValue, [.string("action"), .string(action), .string(actions.joined(separator: ", "))])
        }
        let inputs = Array(arguments.positionals.dropFirst())
        let output = arguments["output"].flatMap { $0 == "-" ? nil : $0 }
        try OutputFile.refuseInputs([output], inputs: inputs)
        var inference = SchemaInference(registry: registry)
        if let jobs = try CodecOptions.positive(arguments, "jobs") { inference.jobs = jobs }
        let (schema, warnings) = try inference.infer(
            inputs, from: arguments["from"], options: CodecOptions.values(arguments, registry: registry),
            limits: try CodecOptions.limits(arguments))
        for warning in warnings { console.report(warning) }
        let text = SchemaInference.text(of: schema)
        guard let output else {
            console.write(text)
            return
        }
        try OutputFile(path: output, overwrite: arguments.flag("force")).commit(text: text)
    }
}
