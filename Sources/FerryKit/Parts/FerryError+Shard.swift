// MARK: - Codes of shards (ferry plan, --plan, --range, --combine)

extension FerryError.Code {
    /// A gzip input, which cannot be read from the middle.
    public static let shardCompressed = Self("shard.compressed", .usage)
    /// A format whose records cannot be cut at byte boundaries (a plist, an
    /// archive, a bundle, a JSON document that is no array).
    public static let shardNotSplittable = Self("shard.notSplittable", .usage)
    /// A `--plan` file that is not a plan `ferry plan` wrote.
    public static let shardBadPlan = Self("shard.badPlan", .usage)
    /// `--shard K` past the plan's shards.
    public static let shardNoSuchShard = Self("shard.noSuchShard", .usage)
    /// The input is not the size the plan was made for: it changed.
    public static let shardPlanStale = Self("shard.planStale", .usage)
    /// A `--range` outside the file, or with its end before its start.
    public static let shardBadRange = Self("shard.badRange", .usage)
    /// A shard's first record or first line past what its file can hold:
    /// a record or a line before it takes a byte at least.
    public static let shardNumbersPastFile = Self("shard.numbersPastFile", .usage)
    /// A shard's output in a format whose parts cannot be concatenated.
    public static let shardOutputNotConcatenable = Self("shard.outputNotConcatenable", .usage)
    /// An option of shards without the one it goes with (`--shard` without `--plan`).
    public static let shardOptionNeeds = Self("shard.optionNeeds", .usage)
    /// A report given to `--combine` that no shard's validation wrote.
    public static let shardBadReport = Self("shard.badReport", .usage)
    /// Reports given to `--combine` whose ranges do not follow each other.
    public static let shardReportsNotContiguous = Self("shard.reportsNotContiguous", .usage)
}

extension FerryError {
    public static func shardCompressed(_ path: String) -> FerryError {
        FerryError(.shardCompressed, [.path(path)], at: SourceLocation(file: path))
    }

    /// - Parameter format: the input's format id.
    public static func shardNotSplittable(_ path: String, format: String) -> FerryError {
        FerryError(.shardNotSplittable, [.path(path), .string(format)], at: SourceLocation(file: path))
    }

    public static func shardBadPlan(_ path: String) -> FerryError {
        FerryError(.shardBadPlan, [.path(path)], at: SourceLocation(file: path))
    }

    /// - Parameters:
    ///   - shard: the shard asked for.
    ///   - count: the plan's shards.
    public static func shardNoSuchShard(_ shard: Int, count: Int) -> FerryError {
        FerryError(.shardNoSuchShard, [.ungrouped(shard), .ungrouped(count - 1)])
    }

    /// - Parameters:
    ///   - path: the input.
    ///   - planned: its size in the plan.
    ///   - size: its size now.
    public static func shardPlanStale(_ path: String, planned: Int, size: Int) -> FerryError {
        FerryError(.shardPlanStale, [.path(path), .count(planned), .integer(size)], at: SourceLocation(file: path))
    }

    /// - Parameters:
    ///   - range: the range as given (`START:END`).
    ///   - size: the file's size.
    public static func shardBadRange(_ range: String, size: Int) -> FerryError {
        FerryError(.shardBadRange, [.string(range), .ungrouped(size)])
    }

    /// - Parameters:
    ///   - firstRecord: the shard's first record number, as given.
    ///   - firstLine: its first line, as given.
    ///   - size: the file's size.
    public static func shardNumbersPastFile(firstRecord: Int, firstLine: Int, size: Int) -> FerryError {
        FerryError(.shardNumbersPastFile, [.ungrouped(firstRecord), .ungrouped(firstLine), .ungrouped(size)])
    }

    /// - Parameter format: the output's format id.
    public static func shardOutputNotConcatenable(_ format: String) -> FerryError {
        FerryError(.shardOutputNotConcatenable, [.string(format)])
    }

    /// - Parameters:
    ///   - option: the option given (`--shard`).
    ///   - needed: what it needs (`--plan`, or `--plan or --range`).
    public static func shardOptionNeeds(_ option: String, _ needed: String) -> FerryError {
        FerryError(.shardOptionNeeds, [.string(option), .string(needed)])
    }

    public static func shardBadReport(_ path: String) -> FerryError {
        FerryError(.shardBadReport, [.path(path)], at: SourceLocation(file: path))
    }

    /// - Parameters:
    ///   - path: the report whose range does not start where the one before ended.
    ///   - expected: the offset it should start at.
    public static func shardReportsNotContiguous(_ path: String, expected: Int) -> FerryError {
        FerryError(.shardReportsNotContiguous, [.path(path), .ungrouped(expected)], at: SourceLocation(file: path))
    }
}
