/// The ordered field names that records of one stream share.
///
/// Readers intern field lists: consecutive records with the same keys point to
/// one `FieldList`, so a million records cost one set of key strings, not a
/// dictionary each. A field list never changes once built.
public final class FieldList: Sendable, Hashable, CustomStringConvertible {
    public let names: [String]
    /// The UTF-8 bytes of each name, for readers that match keys without
    /// building strings.
    public let utf8Names: [[UInt8]]
    private let positions: [String: Int]

    public init(_ names: [String]) {
        self.names = names
        utf8Names = names.map { Array($0.utf8) }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(names.count)
        for (index, name) in names.enumerated() where positions[name] == nil {
            positions[name] = index
        }
        self.positions = positions
    }

    @inlinable public var count: Int { names.count }

    /// The position of `name`, or nil when the list lacks it.
    public func index(of name: String) -> Int? { positions[name] }

    public func contains(_ name: String) -> Bool { positions[name] != nil }

    /// Field lists are equal when their names have the same bytes: keys that
    /// are only canonically equivalent are different fields.
    public static func == (lhs: FieldList, rhs: FieldList) -> Bool {
        lhs === rhs || lhs.utf8Names == rhs.utf8Names
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(utf8Names) }

    public var description: String { names.joined(separator: ", ") }
}
