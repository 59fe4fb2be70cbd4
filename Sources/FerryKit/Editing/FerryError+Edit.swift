// MARK: - Codes of add, edit and remove

extension FerryError.Code {
    /// The file changed on disk between reading it and saving the edit.
    public static let editFileChanged = Self("edit.fileChanged", .io)
    /// A selector that is no record's number or key.
    public static let editNoSuchRecord = Self("edit.noSuchRecord", .usage)
    /// A record number past the last record, or 0 (records count from 1).
    public static let editIndexOutOfRange = Self("edit.indexOutOfRange", .usage)
    /// A key that several records have.
    public static let editAmbiguousKey = Self("edit.ambiguousKey", .usage)
    /// A key selector for records that have no default key (generic ones).
    public static let editNoKey = Self("edit.noKey", .usage)
    /// A `--set` without `=`, or with an empty field name.
    public static let editInvalidAssignment = Self("edit.invalidAssignment", .usage)
    /// A `--set` value that the field's type does not take.
    public static let editValueType = Self("edit.valueType", .usage)
}

extension FerryError {
    public static func editFileChanged(_ path: String) -> FerryError {
        FerryError(.editFileChanged, [.path(path)], at: SourceLocation(file: path))
    }

    /// - Parameter candidates: records the user may have meant, as `number: key` text.
    public static func editNoSuchRecord(_ selector: String, candidates: String, in path: String) -> FerryError {
        FerryError(.editNoSuchRecord, [.string(selector), .string(candidates)], at: SourceLocation(file: path))
    }

    /// - Parameter number: the record number asked for, counted from 1.
    public static func editIndexOutOfRange(_ number: Int, count: Int, in path: String) -> FerryError {
        FerryError(.editIndexOutOfRange, [.ungrouped(number), .count(count)], at: SourceLocation(file: path))
    }

    /// - Parameter candidates: the records that have the key, as `number: key` text.
    public static func editAmbiguousKey(_ selector: String, count: Int, candidates: String, in path: String) -> FerryError {
        FerryError(.editAmbiguousKey, [.string(selector), .count(count), .string(candidates)], at: SourceLocation(file: path))
    }

    public static func editNoKey(_ selector: String, in path: String) -> FerryError {
        FerryError(.editNoKey, [.string(selector)], at: SourceLocation(file: path))
    }

    public static func editInvalidAssignment(_ text: String) -> FerryError {
        FerryError(.editInvalidAssignment, [.string(text)])
    }

    /// - Parameter type: the field's type (`number`, `integer`, `bool`).
    public static func editValueType(_ field: String, value: String, type: String) -> FerryError {
        FerryError(.editValueType, [.string(field), .string(value), .typeName(type)], at: SourceLocation(field: field))
    }
}
