// MARK: - Keyword values

extension SchemaCompiler {

    func invalid(_ keyword: String, _ path: String, _ expected: MessageKey) -> FerryError {
        .schemaInvalidKeyword(keyword, path: path, expected: expected, source: source)
    }

    func checkAnnotation(_ keyword: String, _ value: Value, at path: String) throws(FerryError) {
        switch keyword {
        case "$schema":
            guard case .string(let uri) = value, SchemaDialect(uri: uri) != nil else {
                throw invalid(keyword, path, .schemaExpectedDialect)
            }
        case "$id", "$comment", "title", "description", "$anchor", "$dynamicAnchor", "contentEncoding",
            "contentMediaType":
            guard case .string = value else { throw invalid(keyword, path, .schemaExpectedString) }
        case "examples":
            guard case .array = value else { throw invalid(keyword, path, .schemaExpectedArray) }
        case "$vocabulary", "$defs", "definitions":
            guard case .object = value else { throw invalid(keyword, path, .schemaExpectedObject) }
        case "deprecated", "readOnly", "writeOnly", "$recursiveAnchor":
            guard case .bool = value else { throw invalid(keyword, path, .schemaExpectedBool) }
        default:
            break  // default: any value
        }
    }

    func types(_ value: Value, _ path: String) throws(FerryError) -> JSONTypes {
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

    func uniqueStrings(_ value: Value, _ keyword: String, _ path: String) throws(FerryError) -> [String] {
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

    func number(
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
    func count(_ keyword: String, _ keywords: [String: Value], _ path: String) throws(FerryError) -> Int? {
        guard let value = keywords[keyword] else { return nil }
        switch value.numeric {
        case .integer(let number) where number >= 0: return Int(number)
        case .double(let number) where number >= 0 && SchemaValues.isIntegral(number):
            return number < 9.2e18 ? Int(number) : Int.max
        default: throw invalid(keyword, path, .schemaExpectedCount)
        }
    }

    func pattern(_ value: Value, _ path: String) throws(FerryError) -> SchemaPattern {
        guard case .string(let text) = value else { throw invalid("pattern", path, .schemaExpectedString) }
        do {
            return try SchemaPattern(text)
        } catch {
            throw .schemaInvalidPattern(text, path: path, reason: "\(error)", source: source)
        }
    }
}
