/// A data format, by the id of the codec that reads and writes it.
///
/// The built-in formats have constants; a plugin codec's id makes its own
/// (`FerryFormat(rawValue: "yaml")`), once the codec is in the registry
/// the coder uses.
public struct FerryFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// A JSON array of objects (or the array under a pointer).
    public static let json = FerryFormat(rawValue: "json")
    /// JSON Lines: one object a line.
    public static let jsonl = FerryFormat(rawValue: "jsonl")
    /// Comma-separated values with a header row.
    public static let csv = FerryFormat(rawValue: "csv")
    /// Tab-separated values with a header row.
    public static let tsv = FerryFormat(rawValue: "tsv")
    /// A binary property list of dictionaries.
    public static let plist = FerryFormat(rawValue: "plist")
    /// An XML property list of dictionaries.
    public static let plistXML = FerryFormat(rawValue: "plist-xml")
    /// An `NSKeyedArchiver` archive, as the GameStore app saved its products.
    public static let archive = FerryFormat(rawValue: "archive")
    /// A gzip'd tar of a manifest, the records and their photos.
    public static let bundle = FerryFormat(rawValue: "bundle")

    public var description: String { rawValue }
}
