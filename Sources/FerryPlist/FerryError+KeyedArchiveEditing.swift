import FerryCore

// MARK: - Keyed-archive editing codes

extension FerryError.Code {
    /// Editing: an index past the archive's root elements.
    public static let archiveNoSuchRecord = Self("archive.noSuchRecord", .usage)
    /// Editing: a root that is one instance, not an array, has no room for
    /// another record and cannot lose its only one.
    public static let archiveRootNotArray = Self("archive.rootNotArray", .data)
}

extension FerryError {
    /// - Parameters:
    ///   - index: the 0-based index asked for.
    ///   - count: how many records the archive's root holds.
    public static func archiveNoSuchRecord(_ index: Int, count: Int, at location: SourceLocation) -> FerryError {
        FerryError(.archiveNoSuchRecord, [.integer(index), .count(count)], at: location)
    }

    /// - Parameter className: the class of the root object.
    public static func archiveRootNotArray(_ className: String, at location: SourceLocation) -> FerryError {
        FerryError(.archiveRootNotArray, [.string(className)], at: location)
    }
}
