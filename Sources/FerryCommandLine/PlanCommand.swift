import FerryKit

/// `ferry plan <input> --shards N`: cuts a file into byte ranges that begin
/// at record boundaries, for `convert` and `validate` to read one each.
struct PlanCommand {
    static func spec(registry: CodecRegistry) -> CommandSpec {
        var options = [
            OptionSpec.format("from", short: "f", helpKey: .convertOptionFrom, registry: registry),
            OptionSpec(name: "shards", short: "n", valueName: "n", helpKey: .planOptionShards),
            OptionSpec(name: "report-format", short: "r", valueName: "format", helpKey: .planOptionReport, allowed: ["json"]),
            .jobs,
        ]
        options += CodecOptions.limitSpecs
        options += CodecOptions.specs(registry: registry, taken: Set(options.map(\.name)), applying: .read)
        options.append(.help)
        return CommandSpec(
            name: "plan", abstractKey: .planAbstract,
            arguments: [ArgumentSpec(name: "input", helpKey: .planArgumentInput)],
            options: options,
            examples: [
                Example(
                    command: "ferry plan products.csv --shards 4 > plan.json && "
                        + "ferry convert products.csv part-2.jsonl --plan plan.json --shard 2",
                    key: .examplePlan)
            ])
    }

    static func run(_ arguments: ParsedArguments, registry: CodecRegistry, console: Console) throws(FerryError) {
        var options = ValidationOptions()
        options.from = arguments["from"]
        options.codecOptions = CodecOptions.values(arguments, registry: registry)
        options.limits = try CodecOptions.limits(arguments)
        if let jobs = try CodecOptions.positive(arguments, "jobs") { options.jobs = jobs }
        let shards = try CodecOptions.positive(arguments, "shards") ?? 1
        let plan = try ShardPlanner(registry: registry).plan(arguments.positionals[0], shards: shards, options: options)
        console.write(plan.json)
    }
}

/// The options that read one shard of the input, shared by `convert` and
/// `validate`: `--plan PLAN --shard K`, or `--range START:END
/// --first-record R --first-line L`.
enum ShardOptions {
    static let specs = [
        OptionSpec(name: "plan", valueName: "file", helpKey: .optionShardPlan),
        OptionSpec(name: "shard", valueName: "k", helpKey: .optionShardShard),
        OptionSpec(name: "range", valueName: "start:end", helpKey: .optionShardRange),
        OptionSpec(name: "first-record", valueName: "n", helpKey: .optionShardFirstRecord),
        OptionSpec(name: "first-line", valueName: "n", helpKey: .optionShardFirstLine),
    ]

    static let header = OptionSpec(
        name: "header", valueName: "when", helpKey: .optionShardHeader, allowed: ["auto", "always", "never"])

    /// The shard the options name, or nil for the whole input.
    /// - Throws: `usage.*` for a malformed option, `shard.*` for a plan that
    ///   does not fit the input.
    static func range(_ arguments: ParsedArguments, input: String) throws(FerryError) -> ShardRange? {
        var range: ShardRange?
        if let path = arguments["plan"] {
            if let other = ["range", "first-record", "first-line"].first(where: { arguments[$0] != nil }) {
                throw FerryError(.usageConflictingOptions, [.string("--plan"), .string("--" + other)])
            }
            let plan = try ShardPlan(contentsOf: path)
            let size = RandomAccessFile(input)?.size
            if let size, size != plan.size { throw .shardPlanStale(input, planned: plan.size, size: size) }
            range = try ShardRange(plan, shard: try count(arguments, "shard", minimum: 0) ?? 0)
        } else if let text = arguments["range"] {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let start = parts[0], let end = parts[1] else {
                throw .usageInvalidValue(option: "range", value: text, expected: .message(.expectedRange))
            }
            range = ShardRange(
                start: start, end: end, firstRecord: try count(arguments, "first-record", minimum: 1) ?? 1,
                firstLine: try count(arguments, "first-line", minimum: 1) ?? 1)
        } else if arguments["shard"] != nil {
            throw .shardOptionNeeds("--shard", "--plan")
        } else if let other = ["first-record", "first-line"].first(where: { arguments[$0] != nil }) {
            throw .shardOptionNeeds("--" + other, "--range")
        } else if arguments["header"] != nil {
            throw .shardOptionNeeds("--header", "--plan, --range")
        }
        switch arguments["header"] {
        case "always": range?.writesHeader = true
        case "never": range?.writesHeader = false
        default: break
        }
        return range
    }

    private static func count(_ arguments: ParsedArguments, _ name: String, minimum: Int) throws(FerryError) -> Int? {
        guard let text = arguments[name] else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw .usageInvalidValue(
                option: name, value: text, expected: .message(minimum == 0 ? .expectedCount : .expectedPositiveNumber))
        }
        return value
    }
}
