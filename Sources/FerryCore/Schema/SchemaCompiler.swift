/// Turns a schema document into `SchemaNode`s, checking every keyword once.
///
/// A keyword Ferry does not support is refused with its path
/// (`schema.unsupportedKeyword`), never skipped: a schema that says more
/// than Ferry checks would pass records it should not. A keyword whose value
/// has the wrong shape is `schema.invalidKeyword`.
struct SchemaCompiler {
    let source: String
    /// With `annotate`, a known format is dropped once checked (`photo` kept: it names a type).
    var formats = SchemaFormatMode.assert

    /// The dialect Ferry reads; `$schema` may name it (with or without the empty fragment).
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// Keywords that only describe, accepted and not checked.
    static let annotations: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly",
        "writeOnly",
    ]

    /// Ferry's own keyword: a top-level property whose values must differ
    /// from record to record (checked across records, by `ferry validate`).
    static let uniqueKeyword = "x-ferry-unique"

    /// Compiles the schema `document` found at `path` (a JSON pointer).
    /// - Parameter topLevelProperty: whether it is the schema of a
    ///   property of the root, where `x-ferry-unique` may stand.
    func compile(_ document: Value, at path: String, topLevelProperty: Bool = false) throws(FerryError) -> SchemaNode {
        switch document {
        case .bool(let accepts):
            return SchemaNode(path: path, rejectsAll: !accepts)
        case .object(let object):
            return try compile(object, at: path, topLevelProperty: topLevelProperty)
        default:
            // Only the root reaches here: a keyword's schema is checked by its keyword.
            throw .schemaInvalidKeyword("$schema", path: path.isEmpty ? "/" : path, expected: .schemaExpectedSchema, source: source)
        }
    }

    private func compile(_ object: OrderedObject, at path: String, topLevelProperty: Bool) throws(FerryError) -> SchemaNode {
        var keywords: [String: Value] = [:]
        for index in 0..<object.count {
            let keyword = object.keys[index]
            let value = object.values[index]
            let here = path + "/" + Self.escape(keyword)
            if Self.annotations.contains(keyword) {
                try checkAnnotation(keyword, value, at: here)
            } else if keyword == Self.uniqueKeyword {
                guard topLevelProperty else {
                    throw .schemaInvalidKeyword(keyword, path: here, expected: .schemaExpectedTopLevelProperty, source: source)
                }
                guard case .bool = value else { throw invalid(keyword, here, .schemaExpectedBool) }
            } else if !Self.supported.contains(keyword) {
                throw .schemaUnsupportedKeyword(keyword, path: here, source: source)
            }
            keywords[keyword] = value
        }
        func at(_ keyword: String) -> String { path + "/" + keyword }

        let required = try keywords["required"].map { (value) throws(FerryError) in
            try uniqueStrings(value, "required", at("required"))
        } ?? []
        var properties: [SchemaProperty] = []
        if let value = keywords["properties"] {
            guard case .object(let named) = value else { throw invalid("properties", at("properties"), .schemaExpectedObject) }
            for index in 0..<named.count {
                let name = named.keys[index]
                let here = at("properties") + "/" + Self.escape(name)
                guard Self.isSchema(named.values[index]) else { throw invalid("properties", here, .schemaExpectedSchema) }
                let node = try compile(named.values[index], at: here, topLevelProperty: path.isEmpty)
                var unique = false
                if case .object(let schema) = named.values[index], case .bool(true)? = schema[Self.uniqueKeyword] {
                    unique = true
                }
                properties.append(
                    SchemaProperty(
                        name: name, node: node,
                        required: required.contains { $0.unicodeScalars.elementsEqual(name.unicodeScalars) },
                        unique: unique))
            }
        }
        return SchemaNode(
            path: path,
            types: try keywords["type"].map { (value) throws(FerryError) in try types(value, at("type")) },
            constant: keywords["const"],
            allowed: try keywords["enum"].map { (value) throws(FerryError) in
                guard case .array(let values) = value else { throw invalid("enum", at("enum"), .schemaExpectedArray) }
                return values
            },
            minimum: try number("minimum", keywords, at("minimum")),
            maximum: try number("maximum", keywords, at("maximum")),
            exclusiveMinimum: try number("exclusiveMinimum", keywords, at("exclusiveMinimum")),
            exclusiveMaximum: try number("exclusiveMaximum", keywords, at("exclusiveMaximum")),
            multipleOf: try number("multipleOf", keywords, at("multipleOf"), positive: true),
            minLength: try count("minLength", keywords, at("minLength")),
            maxLength: try count("maxLength", keywords, at("maxLength")),
            pattern: try keywords["pattern"].map { (value) throws(FerryError) in try pattern(value, at("pattern")) },
            format: try keywords["format"].flatMap { (value) throws(FerryError) -> SchemaFormat? in
                guard case .string(let name) = value else { throw invalid("format", at("format"), .schemaExpectedString) }
                guard let format = SchemaFormat(rawValue: name) else {
                    throw .schemaUnknownFormat(name, path: at("format"), source: source)
                }
                return formats == .assert || format == .photo ? format : nil
            },
            items: try subschema("items", keywords, at("items")),
            minItems: try count("minItems", keywords, at("minItems")),
            maxItems: try count("maxItems", keywords, at("maxItems")),
            required: required,
            properties: properties,
            additionalProperties: try subschema("additionalProperties", keywords, at("additionalProperties")).flatMap {
                // `true` (or `{}`) allows any field: the same as no keyword.
                Self.acceptsAll($0) ? nil : $0
            })
    }

    /// The keywords checked (besides annotations and Ferry's own).
    static let supported: Set<String> = [
        "type", "required", "properties", "additionalProperties", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "enum", "const", "items", "minItems",
        "maxItems", "format",
    ]

    // MARK: - Keyword values

    private func invalid(_ keyword: String, _ path: String, _ expected: MessageKey) -> FerryError {
        .schemaInvalidKeyword(keyword, path: path, expected: expected, source: source)
    }

    private func checkAnnotation(_ keyword: String, _ value: Value, at path: String) throws(FerryError) {
        switch keyword {
        case "$schema":
            guard case .string(let uri) = value, uri == Self.dialect || uri == Self.dialect + "#" else {
                throw invalid(keyword, path, .schemaExpectedDialect)
            }
        case "$id", "$comment", "title", "description":
            guard case .string = value else { throw invalid(keyword, path, .schemaExpectedString) }
        case "examples":
            guard case .array = value else { throw invalid(keyword, path, .schemaExpectedArray) }
        case "deprecated", "readOnly", "writeOnly":
            guard case .bool = value else { throw invalid(keyword, path, .schemaExpectedBool) }
        default:
            break  // default: any value
        }
    }

    private func types(_ value: Value, _ path: String) throws(FerryError) -> JSONTypes {
        switch value {
        case .string(let name):
            guard let type = JSONTypes(name: name) else { throw invalid("type", path, .schemaExpectedTypes) }
            return type
        case .array(let names) where !names.isEmpty:
            var types: JSONTypes = []
            for name in names {
                guard case .string(let text) = name, let type = JSONTypes(name: text), !types.contains(type) else {
                    throw invalid("type", path, .schemaExpectedTypes)
                }
                types.insert(type)
            }
            return types
        default:
            throw invalid("type", path, .schemaExpectedTypes)
        }
    }

    private func uniqueStrings(_ value: Value, _ keyword: String, _ path: String) throws(FerryError) -> [String] {
        guard case .array(let values) = value else { throw invalid(keyword, path, .schemaExpectedUniqueStrings) }
        var strings: [String] = []
        for value in values {
            guard case .string(let text) = value,
                !strings.contains(where: { $0.unicodeScalars.elementsEqual(text.unicodeScalars) })
            else { throw invalid(keyword, path, .schemaExpectedUniqueStrings) }
            strings.append(text)
        }
        return strings
    }

    private func number(
        _ keyword: String, _ keywords: [String: Value], _ path: String, positive: Bool = false
    ) throws(FerryError) -> SchemaNumber? {
        guard let value = keywords[keyword] else { return nil }
        guard let number = SchemaNumber(value) else { throw invalid(keyword, path, positive ? .schemaExpectedPositiveNumber : .schemaExpectedNumber) }
        if positive {
            switch number {
            case .integer(let integer) where integer > 0: break
            case .double(let double) where double > 0: break
            default: throw invalid(keyword, path, .schemaExpectedPositiveNumber)
            }
        }
        return number
    }

    /// A non-negative integer (2.0 counts, as JSON Schema says); counts past
    /// `Int.max` are `Int.max`.
    private func count(_ keyword: String, _ keywords: [String: Value], _ path: String) throws(FerryError) -> Int? {
        guard let value = keywords[keyword] else { return nil }
        switch value.numeric {
        case .integer(let number) where number >= 0: return Int(number)
        case .double(let number) where number >= 0 && SchemaValues.isIntegral(number):
            return number < 9.2e18 ? Int(number) : Int.max
        default: throw invalid(keyword, path, .schemaExpectedCount)
        }
    }

    private func pattern(_ value: Value, _ path: String) throws(FerryError) -> SchemaPattern {
        guard case .string(let text) = value else { throw invalid("pattern", path, .schemaExpectedString) }
        do {
            return try SchemaPattern(text)
        } catch {
            throw .schemaInvalidPattern(text, path: path, reason: "\(error)", source: source)
        }
    }

    private func subschema(_ keyword: String, _ keywords: [String: Value], _ path: String) throws(FerryError) -> SchemaNode? {
        guard let value = keywords[keyword] else { return nil }
        guard Self.isSchema(value) else { throw invalid(keyword, path, .schemaExpectedSchema) }
        return try compile(value, at: path)
    }

    static func isSchema(_ value: Value) -> Bool {
        switch value {
        case .bool, .object: true
        default: false
        }
    }

    /// Whether `node` passes every value: `true`, `{}` or annotations only.
    static func acceptsAll(_ node: SchemaNode) -> Bool {
        !node.rejectsAll && node.types == nil && node.constant == nil && node.allowed == nil && node.minimum == nil
            && node.maximum == nil && node.exclusiveMinimum == nil && node.exclusiveMaximum == nil
            && node.multipleOf == nil && node.minLength == nil && node.maxLength == nil && node.pattern == nil
            && node.format == nil && node.items == nil && node.minItems == nil && node.maxItems == nil
            && node.required.isEmpty && node.properties.isEmpty && node.additionalProperties == nil
    }

    /// `name` as a JSON pointer's reference token (`JSONText.pointerToken`).
    static func escape(_ name: String) -> String { JSONText.pointerToken(name) }
}
