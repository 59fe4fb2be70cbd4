/// A key of the message catalogs, typed so that a misspelt key does not
/// compile: `catalog.message(.lintOK, …)`.
///
/// Ferry's own keys are generated from `Formats/Messages/en.strings` into
/// `MessageKeys.swift` by `Scripts/embed-catalogs.py`, one constant per key.
/// Error and warning codes are not among them: they are `FerryError.Code`s,
/// and the catalogs look them up by code. A codec from another package makes
/// its own keys with `MessageKey("markdown.option.x")` and brings their
/// English text in `Codec.messages`.
public struct MessageKey: Sendable, Hashable, CustomStringConvertible {
    /// The key as the catalogs spell it, such as `lint.ok`.
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}

/// The key of a message that counts something, whose wording depends on the
/// count: the catalogs hold one variant per CLDR plural category,
/// `convert.done#one` and `convert.done#other` (and `#many` in French,
/// Spanish and Italian). Look one up with `catalog.message(_:count:_:)`.
public struct PluralKey: Sendable, Hashable, CustomStringConvertible {
    /// The base key, without a `#category` suffix.
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
