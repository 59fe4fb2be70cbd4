/// Turns a schema document into `SchemaNode`s, checking every keyword once.
///
/// A keyword Ferry does not know is refused with its path
/// (`schema.unsupportedKeyword`), never skipped: a misspelt `minimun` would
/// pass records it should not. A keyword whose value has the wrong shape is
/// `schema.invalidKeyword`; a reference that leads nowhere,
/// `schema.unresolvedReference`. Which keywords there are depends on the
/// dialect (`SchemaDialect`): draft-07 reads `dependencies`, `items` as an
/// array and `additionalItems`, and ignores whatever stands beside `$ref`.
struct SchemaCompiler {
    let loader: SchemaLoader
    var source: String { loader.source }

    /// The dialect Ferry reads when `$schema` names none.
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// Keywords that only describe, or hold schemas only references reach:
    /// accepted and not checked.
    static let annotations: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly",
        "writeOnly", "$defs", "definitions", "$anchor", "$dynamicAnchor", "$vocabulary", "$recursiveAnchor",
        "contentEncoding", "contentMediaType", "contentSchema",
    ]

    /// Ferry's own keyword: a top-level property whose values must differ
    /// from record to record (checked across records, by `ferry validate`).
    static let uniqueKeyword = "x-ferry-unique"

    /// What a keyword's value holds, for the walk that finds resources.
    enum Shape { case schema, schemas, namedSchemas, value }

    static func shape(of keyword: String, _ dialect: SchemaDialect, _ value: Value) -> Shape {
        switch keyword {
        case "not", "if", "then", "else", "contains", "propertyNames", "additionalProperties", "contentSchema":
            return .schema
        case "allOf", "anyOf", "oneOf": return .schemas
        case "properties", "patternProperties", "$defs", "definitions": return .namedSchemas
        case "dependentSchemas": return dialect == .draft7 ? .value : .namedSchemas
        case "dependencies": return dialect == .draft7 ? .namedSchemas : .value
        case "prefixItems": return dialect == .draft2020 ? .schemas : .value
        case "additionalItems": return dialect == .draft2020 ? .value : .schema
        case "unevaluatedItems", "unevaluatedProperties": return dialect == .draft7 ? .value : .schema
        case "items":
            if case .array = value { return dialect == .draft2020 ? .value : .schemas }
            return .schema
        default: return .value
        }
    }

    /// The keywords checked in `dialect` (besides annotations and Ferry's own).
    static func supports(_ keyword: String, in dialect: SchemaDialect) -> Bool {
        if core.contains(keyword) { return true }
        switch dialect {
        case .draft7: return draft7.contains(keyword)
        case .draft2019: return draft2019.contains(keyword)
        case .draft2020: return draft2020.contains(keyword)
        }
    }

    private static let core: Set<String> = [
        "type", "required", "properties", "additionalProperties", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "enum", "const", "items", "minItems",
        "maxItems", "format", "$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "contains",
        "uniqueItems", "patternProperties", "propertyNames", "minProperties", "maxProperties",
    ]
    private static let draft7: Set<String> = ["dependencies", "additionalItems"]
    private static let draft2019: Set<String> = [
        "dependentSchemas", "dependentRequired", "additionalItems", "minContains", "maxContains", "unevaluatedItems",
        "unevaluatedProperties", "$recursiveRef",
    ]
    private static let draft2020: Set<String> = [
        "dependentSchemas", "dependentRequired", "prefixItems", "minContains", "maxContains", "unevaluatedItems",
        "unevaluatedProperties", "$dynamicRef",
    ]

    /// Compiles the schema `document` found at `path` (a JSON pointer).
    /// - Parameter topLevelProperty: whether it is the schema of a
    ///   property of the root, where `x-ferry-unique` may stand.
    func compile(
        _ document: Value, in context: SchemaContext, at path: String, topLevelProperty: Bool = false
    ) throws(FerryError) -> SchemaNode {
        switch document {
        case .bool(let accepts):
            return SchemaNode(path: path, rejectsAll: !accepts, resource: context.resource)
        case .object(let object):
            return try compile(object, in: moved(context, by: object), at: path, topLevelProperty: topLevelProperty)
        default:
            // Only the root reaches here: a keyword's schema is checked by its keyword.
            throw .schemaInvalidKeyword(
                "$schema", path: path.isEmpty ? "/" : path, expected: .schemaExpectedSchema, source: source)
        }
    }

    /// The context of `object`'s keywords: its own resource when its `$id` makes one.
    private func moved(_ context: SchemaContext, by object: OrderedObject) -> SchemaContext {
        guard case .string(let id)? = object["$id"],
            !(context.dialect == .draft7 && (id.hasPrefix("#") || object["$ref"] != nil))
        else { return context }
        let uri = SchemaURI.withoutFragment(SchemaURI.resolve(id, against: context.base))
        guard let index = loader.resources.firstIndex(where: { $0.uri == uri }) else { return context }
        return SchemaContext(resource: index, base: uri, dialect: loader.resources[index].dialect)
    }

    private func compile(
        _ object: OrderedObject, in context: SchemaContext, at path: String, topLevelProperty: Bool
    ) throws(FerryError) -> SchemaNode {
        func at(_ keyword: String) -> String { path + "/" + keyword }
        // Draft-07: "All other properties in a "$ref" object MUST be ignored."
        if context.dialect == .draft7, case .string(let reference)? = object["$ref"] {
            let applicators = SchemaApplicators()
            applicators.ref = try loader.target(of: reference, in: context, at: at("$ref"))
            return SchemaNode(path: path, applicators: applicators, resource: context.resource)
        }
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
            } else if !Self.supports(keyword, in: context.dialect) {
                if loader.ignoresUnknownKeywords { continue }
                throw .schemaUnsupportedKeyword(keyword, path: here, source: source)
            }
            keywords[keyword] = value
        }
        let required = try keywords["required"].map { (value) throws(FerryError) in
            try uniqueStrings(value, "required", at("required"))
        } ?? []
        var properties: [SchemaProperty] = []
        for (name, value) in try named("properties", keywords, path) {
            let here = at("properties") + "/" + Self.escape(name)
            let node = try compile(value, in: context, at: here, topLevelProperty: path.isEmpty)
            var unique = false
            if case .object(let schema) = value, case .bool(true)? = schema[Self.uniqueKeyword] { unique = true }
            properties.append(
                SchemaProperty(
                    name: name, node: node,
                    required: required.contains { $0.unicodeScalars.elementsEqual(name.unicodeScalars) },
                    unique: unique))
        }
        let applicators = try compileApplicators(keywords, in: context, at: path)
        let items: SchemaNode?
        if context.dialect != .draft2020, case .array? = keywords["items"] {
            applicators.prefixItems = try subschemas("items", keywords, context, path)
            items = try subschema("additionalItems", keywords, context, path)
        } else {
            // `additionalItems` without an array of `items` says nothing.
            items = try subschema("items", keywords, context, path)
        }
        let additional = try subschema("additionalProperties", keywords, context, path)
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
                guard loader.assertsFormats else { return nil }
                guard let format = SchemaFormat(rawValue: name) else {
                    throw .schemaUnknownFormat(name, path: at("format"), source: source)
                }
                // With `annotate`, a known format is dropped once checked
                // (`photo` kept: it names a type).
                return loader.formats == .assert || format == .photo ? format : nil
            },
            items: items,
            minItems: try count("minItems", keywords, at("minItems")),
            maxItems: try count("maxItems", keywords, at("maxItems")),
            required: required,
            properties: properties,
            // `true` (or `{}`) allows any field: the same as no keyword.
            additionalProperties: additional.flatMap { Self.acceptsAll($0) ? nil : $0 },
            evaluatesOtherProperties: additional.map(Self.acceptsAll) ?? false,
            applicators: applicators,
            resource: context.resource)
    }

    // MARK: - Applicators

    private func compileApplicators(
        _ keywords: [String: Value], in context: SchemaContext, at path: String
    ) throws(FerryError) -> SchemaApplicators {
        func at(_ keyword: String) -> String { path + "/" + keyword }
        let result = SchemaApplicators()
        if let value = keywords["$ref"] {
            guard case .string(let reference) = value else { throw invalid("$ref", at("$ref"), .schemaExpectedString) }
            result.ref = try loader.target(of: reference, in: context, at: at("$ref"))
        }
        for keyword in ["$dynamicRef", "$recursiveRef"] {
            guard let value = keywords[keyword] else { continue }
            guard case .string(let reference) = value else { throw invalid(keyword, at(keyword), .schemaExpectedString) }
            result.dynamicRef = try loader.dynamicTarget(
                of: reference, recursive: keyword == "$recursiveRef", in: context, at: at(keyword))
        }
        result.allOf = try subschemas("allOf", keywords, context, path)
        result.anyOf = try subschemas("anyOf", keywords, context, path)
        result.oneOf = try subschemas("oneOf", keywords, context, path)
        result.not = try subschema("not", keywords, context, path)
        result.ifSchema = try subschema("if", keywords, context, path)
        result.thenSchema = try subschema("then", keywords, context, path)
        result.elseSchema = try subschema("else", keywords, context, path)
        if context.dialect == .draft2020 { result.prefixItems = try subschemas("prefixItems", keywords, context, path) }
        result.contains = try subschema("contains", keywords, context, path)
        result.minContains = try count("minContains", keywords, at("minContains"))
        result.maxContains = try count("maxContains", keywords, at("maxContains"))
        if let value = keywords["uniqueItems"] {
            guard case .bool(let unique) = value else { throw invalid("uniqueItems", at("uniqueItems"), .schemaExpectedBool) }
            result.uniqueItems = unique
        }
        for (name, value) in try named("patternProperties", keywords, path) {
            let here = at("patternProperties") + "/" + Self.escape(name)
            result.patternProperties.append(
                (try pattern(.string(name), here), try compile(value, in: context, at: here)))
        }
        result.propertyNames = try subschema("propertyNames", keywords, context, path)
        result.minProperties = try count("minProperties", keywords, at("minProperties"))
        result.maxProperties = try count("maxProperties", keywords, at("maxProperties"))
        result.unevaluatedItems = try subschema("unevaluatedItems", keywords, context, path)
        result.unevaluatedProperties = try subschema("unevaluatedProperties", keywords, context, path)
        for (name, value) in try named("dependentSchemas", keywords, path) {
            result.dependentSchemas.append(
                (name, try compile(value, in: context, at: at("dependentSchemas") + "/" + Self.escape(name))))
        }
        if let value = keywords["dependentRequired"] {
            guard case .object(let named) = value else {
                throw invalid("dependentRequired", at("dependentRequired"), .schemaExpectedObject)
            }
            for (name, list) in zip(named.keys, named.values) {
                let here = at("dependentRequired") + "/" + Self.escape(name)
                result.dependentRequired.append((name, try uniqueStrings(list, "dependentRequired", here)))
            }
        }
        // Draft-07's `dependencies`: a list of names, or a schema.
        if let value = keywords["dependencies"] {
            guard case .object(let named) = value else { throw invalid("dependencies", at("dependencies"), .schemaExpectedObject) }
            for (name, entry) in zip(named.keys, named.values) {
                let here = at("dependencies") + "/" + Self.escape(name)
                if case .array = entry {
                    result.dependentRequired.append((name, try uniqueStrings(entry, "dependencies", here)))
                } else {
                    guard Self.isSchema(entry) else { throw invalid("dependencies", here, .schemaExpectedSchema) }
                    result.dependentSchemas.append((name, try compile(entry, in: context, at: here)))
                }
            }
        }
        return result
    }

    private func subschema(
        _ keyword: String, _ keywords: [String: Value], _ context: SchemaContext, _ path: String
    ) throws(FerryError) -> SchemaNode? {
        guard let value = keywords[keyword] else { return nil }
        let here = path + "/" + keyword
        guard Self.isSchema(value) else { throw invalid(keyword, here, .schemaExpectedSchema) }
        return try compile(value, in: context, at: here)
    }

    private func subschemas(
        _ keyword: String, _ keywords: [String: Value], _ context: SchemaContext, _ path: String
    ) throws(FerryError) -> [SchemaNode] {
        guard let value = keywords[keyword] else { return [] }
        let here = path + "/" + keyword
        guard case .array(let elements) = value, !elements.isEmpty else { throw invalid(keyword, here, .schemaExpectedArray) }
        var nodes: [SchemaNode] = []
        for (index, element) in elements.enumerated() {
            guard Self.isSchema(element) else { throw invalid(keyword, here + "/\(index)", .schemaExpectedSchema) }
            nodes.append(try compile(element, in: context, at: here + "/\(index)"))
        }
        return nodes
    }

    /// The schemas of an object of schemas (`properties`, `patternProperties`, `dependentSchemas`).
    private func named(_ keyword: String, _ keywords: [String: Value], _ path: String) throws(FerryError) -> [(String, Value)] {
        guard let value = keywords[keyword] else { return [] }
        let here = path + "/" + keyword
        guard case .object(let named) = value else { throw invalid(keyword, here, .schemaExpectedObject) }
        var result: [(String, Value)] = []
        for (name, schema) in zip(named.keys, named.values) {
            guard Self.isSchema(schema) else { throw invalid(keyword, here + "/" + Self.escape(name), .schemaExpectedSchema) }
            result.append((name, schema))
        }
        return result
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
            && node.applicators == nil
    }

    /// `name` as a JSON pointer's reference token (`JSONText.pointerToken`).
    static func escape(_ name: String) -> String { JSONText.pointerToken(name) }
}
