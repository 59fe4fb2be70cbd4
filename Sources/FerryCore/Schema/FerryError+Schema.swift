// MARK: - Codes of schemas

extension FerryError.Code {
    // A schema that cannot be compiled: the command line (or the caller) is wrong.
    public static let schemaUnsupportedKeyword = Self("schema.unsupportedKeyword", .usage)
    public static let schemaInvalidKeyword = Self("schema.invalidKeyword", .usage)
    public static let schemaInvalidPattern = Self("schema.invalidPattern", .usage)
    public static let schemaUnknownFormat = Self("schema.unknownFormat", .usage)
    public static let schemaUnresolvedReference = Self("schema.unresolvedReference", .usage)

    // A record that breaks a schema's rule. `record.missingField`,
    // `record.emptyField`, `record.wrongType` and `record.negative` keep
    // their released codes (FerryError+Core.swift); every other keyword has
    // its own.
    public static let schemaType = Self("schema.type", .data)
    public static let schemaMinimum = Self("schema.minimum", .data)
    public static let schemaMaximum = Self("schema.maximum", .data)
    public static let schemaExclusiveMinimum = Self("schema.exclusiveMinimum", .data)
    public static let schemaExclusiveMaximum = Self("schema.exclusiveMaximum", .data)
    public static let schemaMultipleOf = Self("schema.multipleOf", .data)
    public static let schemaMinLength = Self("schema.minLength", .data)
    public static let schemaMaxLength = Self("schema.maxLength", .data)
    public static let schemaPattern = Self("schema.pattern", .data)
    public static let schemaEnum = Self("schema.enum", .data)
    public static let schemaConst = Self("schema.const", .data)
    public static let schemaMinItems = Self("schema.minItems", .data)
    public static let schemaMaxItems = Self("schema.maxItems", .data)
    public static let schemaFormat = Self("schema.format", .data)
    public static let schemaAdditionalProperties = Self("schema.additionalProperties", .data)
    public static let schemaFalse = Self("schema.false", .data)
    public static let schemaAnyOf = Self("schema.anyOf", .data)
    public static let schemaOneOf = Self("schema.oneOf", .data)
    public static let schemaNot = Self("schema.not", .data)
    public static let schemaContains = Self("schema.contains", .data)
    public static let schemaMaxContains = Self("schema.maxContains", .data)
    public static let schemaUniqueItems = Self("schema.uniqueItems", .data)
    public static let schemaPropertyNames = Self("schema.propertyNames", .data)
    public static let schemaMinProperties = Self("schema.minProperties", .data)
    public static let schemaMaxProperties = Self("schema.maxProperties", .data)
    public static let schemaDependentRequired = Self("schema.dependentRequired", .data)
    public static let schemaUnevaluatedProperties = Self("schema.unevaluatedProperties", .data)
    public static let schemaUnevaluatedItems = Self("schema.unevaluatedItems", .data)
    public static let schemaReferenceDepth = Self("schema.referenceDepth", .data)
}

// MARK: - Factories: compiling

extension FerryError {
    /// `keyword` at `path` (a JSON pointer into the schema) is not one Ferry
    /// supports; it is refused rather than ignored.
    public static func schemaUnsupportedKeyword(_ keyword: String, path: String, source: String) -> FerryError {
        FerryError(.schemaUnsupportedKeyword, [.string(keyword), .string(path)], at: SourceLocation(file: source))
    }

    /// The value of `keyword` at `path` has the wrong shape; `expected` names
    /// a catalog entry (`schema.expected.…`) that says what it must be.
    public static func schemaInvalidKeyword(
        _ keyword: String, path: String, expected: MessageKey, source: String
    ) -> FerryError {
        FerryError(
            .schemaInvalidKeyword, [.string(keyword), .string(path), .message(expected)],
            at: SourceLocation(file: source))
    }

    /// `pattern` at `path` is not a regular expression the standard library compiles.
    public static func schemaInvalidPattern(
        _ pattern: String, path: String, reason: String, source: String
    ) -> FerryError {
        FerryError(
            .schemaInvalidPattern, [.string(pattern), .string(path), .string(reason)], at: SourceLocation(file: source))
    }

    /// `format` at `path` names a format Ferry does not know.
    public static func schemaUnknownFormat(_ format: String, path: String, source: String) -> FerryError {
        FerryError(.schemaUnknownFormat, [.string(format), .string(path)], at: SourceLocation(file: source))
    }

    /// The reference `reference` at `path` leads to no schema Ferry has: no
    /// file on disk, no schema registered with that `$id` (`--schema-dir`),
    /// no anchor or pointer inside it. Ferry never fetches a URL.
    public static func schemaUnresolvedReference(_ reference: String, path: String, source: String) -> FerryError {
        FerryError(.schemaUnresolvedReference, [.string(reference), .string(path)], at: SourceLocation(file: source))
    }
}

// MARK: - Factories: checking

extension FerryError {
    /// The value of `field` has none of `expected`, the schema's type names
    /// (`string`, `null`, …); `found` is the value's type (`integer`, …).
    public static func schemaType(
        _ field: String, expected: [String], found: String, at location: SourceLocation
    ) -> FerryError {
        FerryError(
            .schemaType, [.string(field), .string(expected.joined(separator: ", ")), .typeName(found)],
            at: location)
    }

    /// `field` is below `limit` (`minimum`, other than 0: that is `record.negative`).
    public static func schemaMinimum(_ field: String, limit: MessageArgument, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMinimum, [.string(field), limit], at: location)
    }

    public static func schemaMaximum(_ field: String, limit: MessageArgument, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMaximum, [.string(field), limit], at: location)
    }

    public static func schemaExclusiveMinimum(
        _ field: String, limit: MessageArgument, at location: SourceLocation
    ) -> FerryError {
        FerryError(.schemaExclusiveMinimum, [.string(field), limit], at: location)
    }

    public static func schemaExclusiveMaximum(
        _ field: String, limit: MessageArgument, at location: SourceLocation
    ) -> FerryError {
        FerryError(.schemaExclusiveMaximum, [.string(field), limit], at: location)
    }

    public static func schemaMultipleOf(_ field: String, divisor: MessageArgument, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMultipleOf, [.string(field), divisor], at: location)
    }

    /// `field` has fewer characters (Unicode scalars) than `limit`.
    public static func schemaMinLength(_ field: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMinLength, [.string(field), .integer(limit)], at: location)
    }

    public static func schemaMaxLength(_ field: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMaxLength, [.string(field), .integer(limit)], at: location)
    }

    public static func schemaPattern(_ field: String, pattern: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaPattern, [.string(field), .string(pattern)], at: location)
    }

    /// `field` is none of `allowed`, the enum's values as compact JSON.
    public static func schemaEnum(_ field: String, allowed: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaEnum, [.string(field), .string(allowed)], at: location)
    }

    /// `field` is not `expected`, the const's value as compact JSON.
    public static func schemaConst(_ field: String, expected: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaConst, [.string(field), .string(expected)], at: location)
    }

    public static func schemaMinItems(_ field: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMinItems, [.string(field), .count(limit)], at: location)
    }

    public static func schemaMaxItems(_ field: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMaxItems, [.string(field), .count(limit)], at: location)
    }

    /// `field` is a string that is not of `format` (`date`, `isbn`, …).
    public static func schemaFormat(_ field: String, format: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaFormat, [.string(field), .string(format)], at: location)
    }

    /// `field` is not named by the schema, whose `additionalProperties` is false.
    public static func schemaAdditionalProperties(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaAdditionalProperties, [.string(field)], at: location)
    }

    /// `field` meets the schema `false`, which nothing passes.
    public static func schemaFalse(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaFalse, [.string(field)], at: location)
    }
}

// MARK: - Factories: applicators

extension FerryError {
    /// `field` passes none of the branches of `anyOf` (reported when no
    /// branch's own error can stand for them).
    public static func schemaAnyOf(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaAnyOf, [.string(field)], at: location)
    }

    /// `field` passes `passing` branches of `oneOf` (0 or more than one), not exactly one.
    public static func schemaOneOf(_ field: String, passing: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaOneOf, [.string(field), .integer(passing)], at: location)
    }

    /// `field` passes the schema under `not`.
    public static func schemaNot(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaNot, [.string(field)], at: location)
    }

    /// Fewer than `least` items of `field` pass `contains` (`minContains`, 1 by default).
    public static func schemaContains(_ field: String, least: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaContains, [.string(field), .count(least)], at: location)
    }

    /// More than `most` items of `field` pass `contains`.
    public static func schemaMaxContains(_ field: String, most: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMaxContains, [.string(field), .count(most)], at: location)
    }

    /// Two items of `field` are equal.
    public static func schemaUniqueItems(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaUniqueItems, [.string(field)], at: location)
    }

    /// The name of `field` (its last part) fails `propertyNames`.
    public static func schemaPropertyNames(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaPropertyNames, [.string(field)], at: location)
    }

    public static func schemaMinProperties(_ field: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMinProperties, [.string(field), .count(limit)], at: location)
    }

    public static func schemaMaxProperties(_ field: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.schemaMaxProperties, [.string(field), .count(limit)], at: location)
    }

    /// `field` is missing, and `dependency` (beside it) requires it.
    public static func schemaDependentRequired(
        _ field: String, dependency: String, at location: SourceLocation
    ) -> FerryError {
        FerryError(.schemaDependentRequired, [.string(field), .string(dependency)], at: location)
    }

    /// `field` is one no keyword of its object's schema looked at, and
    /// `unevaluatedProperties` is false.
    public static func schemaUnevaluatedProperties(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaUnevaluatedProperties, [.string(field)], at: location)
    }

    /// The item `field` is one no keyword looked at, and `unevaluatedItems` is false.
    public static func schemaUnevaluatedItems(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaUnevaluatedItems, [.string(field)], at: location)
    }

    /// Checking `field` followed more than `SchemaChecker.maxDepth`
    /// references on its way down: a schema that refers to itself without
    /// going deeper into the value.
    public static func schemaReferenceDepth(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.schemaReferenceDepth, [.string(field)], at: location)
    }
}
