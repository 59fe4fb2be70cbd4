/// What to do when two records share a key but differ (`--on-conflict`).
public enum ConflictPolicy: String, Sendable, CaseIterable {
    /// Keep the record read first; later ones are dropped.
    case keepFirst = "keep-first"
    /// Keep the record read last, at the place the key was first seen.
    case keepLast = "keep-last"
    /// Write nothing when any conflict turns up; exit status 1.
    case fail
}

/// What a merge did: its sources, its key, its counts and every conflict.
///
/// Nothing is lost: `recordsIn == recordsOut + identicalDuplicates +
/// conflictsResolved` (`countsAddUp`). Under `fail` with conflicts nothing is
/// written, and the counts are those keep-first would have given.
public struct MergeReport: Sendable {
    /// One input.
    public struct Source: Sendable {
        public var path: String
        public var format: String
        /// The kind its records were read as; nil when it had none.
        public var kind: RecordKind?
        public var records = 0
    }

    /// Where a record came from: its file, its line in a text format (when
    /// the file could be read again), and its 0-based index in the file.
    public struct Place: Sendable, Equatable {
        public var file: String
        public var line: Int?
        public var record: Int
        /// The offset of the record's first byte in the (inflated) file.
        public var byteOffset: Int
    }

    /// Two records with one key that differ.
    public struct Conflict: Sendable {
        /// The key text of each key field; nil for a field with no value.
        public var key: [String?]
        /// The record read earlier, and the one read later.
        public var first: Place
        public var second: Place
        /// Whether the later record was kept (keep-last); else the earlier.
        public var keptSecond: Bool
        /// The fields that differ, with the earlier record's value first.
        public var differences: [FieldDifference]
    }

    /// How the key fields were chosen.
    public enum KeyChoice: String, Sendable {
        /// `--key`.
        case option
        /// The kind's default key (see `DefaultKey`).
        case kindDefault = "default"
    }

    public var sources: [Source] = []
    public var kind: RecordKind = .generic
    public var keyFields: [String] = []
    public var keyChoice = KeyChoice.option
    public var policy = ConflictPolicy.keepFirst
    public var output: String?
    public var outputFormat = ""
    /// Whether the output was written: false under `fail` with conflicts.
    public var written = false
    /// Whether the records were merged through runs spilled to disk.
    public var spilled = false

    public var recordsOut = 0
    /// Duplicates equal to the record kept: merged silently.
    public var identicalDuplicates = 0
    /// Records that had none of the key fields: kept as they are, never merged.
    public var recordsWithoutKey = 0
    public var conflicts: [Conflict] = []
    /// Conflicts counted but not in `conflicts`: past those the merge was
    /// asked to list (`MergeOptions.listedConflicts`).
    public var unlistedConflicts = 0
    /// What the readers warned of (a repeated JSON name, …).
    public var warnings: [FerryWarning] = []
    /// Whether the merge took the spooled way (`SpooledMerge`); for tests,
    /// not in any report.
    var wasSpooled = false
    /// How many of a spooled merge's records were kept as their input's
    /// own lines (see `SpooledMerge`'s `Spool`); for tests too.
    var linesKeptAsRead = 0

    package init() {}

    /// Every record read.
    public var recordsIn: Int { sources.reduce(0) { $0 + $1.records } }
    /// Records dropped by the policy: one per conflict.
    public var conflictsResolved: Int { conflicts.count + unlistedConflicts }
    /// Whether records in = records out + identical duplicates + conflicts resolved.
    public var countsAddUp: Bool { recordsIn == recordsOut + identicalDuplicates + conflictsResolved }
}
