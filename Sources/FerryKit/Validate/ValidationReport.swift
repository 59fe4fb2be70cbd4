/// What `ferry validate` found: every diagnostic up to the cap, and the
/// counts the summaries and CI reports need.
public struct ValidationReport: Sendable {
    /// One input file's outcome.
    public struct File: Sendable {
        /// The path as given (`-` for standard input).
        public var path: String
        /// The format it was read as, or nil when it could not be opened.
        public var format: String?
        /// The kind its records were checked as.
        public var kind: RecordKind?
        /// Records read, valid or not.
        public var records = 0
        /// Records with at least one error.
        public var invalidRecords = 0
        /// Records read after the error cap was reached, and so not checked.
        public var uncheckedRecords = 0
        /// False when an error stopped the reading before the end of the file
        /// (a JSON document's structural error, an unterminated CSV quote, an
        /// unreadable file): what follows was not checked.
        public var complete = true
        /// Whether the records were counted: false for `lint`, which checks
        /// that the file is well formed and no more.
        public var countsRecords = true
        /// Errors and warnings in this file.
        public var errors = 0
        public var warnings = 0
        /// How many parts it was checked in at once (`--jobs`): 1 for one
        /// pass (for tests).
        var partCount = 1

        package init(path: String) { self.path = path }

        /// Records that were checked and had no error.
        public var validRecords: Int { records - invalidRecords - uncheckedRecords }
    }

    /// How the rules were chosen.
    public enum RulesChoice: String, Sendable {
        /// `--schema FILE`.
        case schema
        /// `--kind`.
        case kind
        /// Inferred from each file's records.
        case inferred
        /// No rules: only well-formedness (`ferry lint`).
        case wellFormedness
    }

    public var files: [File] = []
    /// Every diagnostic kept, in the order found.
    public var diagnostics: [Diagnostic] = []
    /// The rules' name: the schema's path, or the built-in kinds used.
    public var rules: String = ""
    public var rulesChoice: RulesChoice = .inferred
    /// The cap on errors, and whether it was reached: the report is then
    /// partial, and `uncheckedRecords` says how much was left.
    public var maxErrors: Int?
    public var reachedCap = false
    /// The categories of every error found, those past the cap included.
    public var errorCategories: Set<FerryError.Category> = []
    /// When one shard of a file was checked: what `--combine` needs.
    package var shard: ShardTrace?

    package init() {}

    /// The files' counts added up (its path is empty).
    public var total: File {
        var total = File(path: "")
        total.countsRecords = files.allSatisfy(\.countsRecords)
        for file in files {
            total.records += file.records
            total.invalidRecords += file.invalidRecords
            total.uncheckedRecords += file.uncheckedRecords
            total.errors += file.errors
            total.warnings += file.warnings
            total.complete = total.complete && file.complete
        }
        return total
    }

    public var errorCount: Int { total.errors }
    public var warningCount: Int { total.warnings }
    public var records: Int { total.records }
    public var validRecords: Int { total.validRecords }
    public var invalidRecords: Int { total.invalidRecords }
    public var uncheckedRecords: Int { total.uncheckedRecords }
    /// Files with at least one error.
    public var filesWithErrors: Int { files.filter { $0.errors > 0 }.count }
    /// Whether the report leaves something out: the cap was reached with
    /// records left unchecked, or a file could not be read to its end.
    public var isPartial: Bool { (reachedCap && uncheckedRecords > 0) || files.contains { !$0.complete } }
    public var isValid: Bool { errorCount == 0 }

    /// The worst category among the errors: I/O over data; nil when valid.
    public var worstCategory: FerryError.Category? {
        [.io, .usage, .data].first(where: errorCategories.contains)
    }
}
