// MARK: - Codes of options no codec takes

extension FerryError.Code {
    /// A library caller gave a codec option (`OptionValues`) that none of
    /// the codecs of the run understands.
    public static let usageUnknownCodecOption = Self("usage.unknownCodecOption", .usage)
    /// As `usageUnknownCodecOption`, with a near option's name to suggest
    /// (`delimter` for `delimiter`).
    public static let usageMisspeltCodecOption = Self("usage.misspeltCodecOption", .usage)
}

extension FerryError {
    /// - Parameters:
    ///   - key: the option as given, without dashes.
    ///   - codecs: the ids of the codecs of the run, `csv, json`.
    ///   - suggestion: the nearest option they take, if one is near.
    public static func unknownCodecOption(_ key: String, codecs: String, suggestion: String?) -> FerryError {
        guard let suggestion else { return FerryError(.usageUnknownCodecOption, [.string(key), .string(codecs)]) }
        return FerryError(.usageMisspeltCodecOption, [.string(key), .string(codecs), .string(suggestion)])
    }
}

// MARK: - The check

extension OptionValues {
    /// Throws for the first key (in name order) that none of `codecs`
    /// declares in its `options`, with the nearest declared name when one
    /// is near (the command line's "did you mean", `Suggestion`).
    /// - Throws: `usage.unknownCodecOption`, `usage.misspeltCodecOption`.
    public func check(against codecs: [any Codec]) throws(FerryError) {
        let known = codecs.flatMap { $0.options.map(\.name) }
        for key in values.keys.sorted() where !known.contains(key) {
            var ids: [String] = []
            for codec in codecs where !ids.contains(codec.id) { ids.append(codec.id) }
            throw .unknownCodecOption(
                key, codecs: ids.joined(separator: ", "), suggestion: Suggestion.nearest(key, among: known))
        }
    }
}
