extension RecordDecoder {
    /// `record` as a `T`.
    /// - Throws: `record.missingField`, `record.wrongType`,
    ///   `decode.invalidValue`, with the field path and the top-level field
    ///   in the location; `decode.failed` for a `DecodingError` the type's
    ///   own code throws.
    /// `record` is borrowed for the call only (see `RecordDecoder.record`).
    static func decode<T: Decodable>(_ type: T.Type, from record: RawRecord, rules: DecodingRules) throws(FerryError) -> T {
        let decoder = RecordDecoder(.record(record), rules: rules)
        defer { decoder.expire() }
        do {
            return try T(from: decoder)
        } catch let error as FerryError {
            throw error
        } catch let error as DecodingError {
            throw failure(error)
        } catch {
            throw .decodeFailed("", reason: "\(error)", at: .unknown)
        }
    }

    /// `record` as a `T`, through a raw record whose cells point at its values.
    static func decode<T: Decodable>(_ type: T.Type, from record: Record, rules: DecodingRules) throws(FerryError) -> T {
        try RawRecord.with(record) { (record) throws(FerryError) in try decode(type, from: record, rules: rules) }
    }

    /// A `DecodingError` a type's own code threw, as a located `FerryError`.
    private static func failure(_ error: DecodingError) -> FerryError {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found):
            context = found
        case .keyNotFound(let key, let found):
            let path = FieldPath(found.codingPath + [key])
            return .recordMissingField(path.text, at: path.location)
        @unknown default:
            return .decodeFailed("", reason: "\(error)", at: .unknown)
        }
        let path = FieldPath(context.codingPath)
        return .decodeFailed(path.text, reason: context.debugDescription, at: path.location)
    }
}
