import FerryKit
import Testing

/// JSON text as values and records, read by FerryJSON, for the schema tests.
enum JSONValues {
    /// The value `text` holds.
    static func value(_ text: String) throws -> Value {
        let reader = JSONReader(MemoryInput(Array("{\"v\":\(text)}".utf8)), layout: .document)
        return try #require(try reader.next()).values[0]
    }

    /// The record of the object `text`.
    static func record(_ text: String) throws -> Record {
        try #require(try JSONReader(MemoryInput(Array(text.utf8)), layout: .document).next())
    }

    /// A schema compiled from `text`, whose source is `test`.
    static func schema(_ text: String) throws -> Schema {
        try Schema(document: value(text), source: "test")
    }

    /// Every diagnostic `schema` reports on the record `text` (record 3 of `f`).
    static func diagnostics(_ schema: Schema, _ text: String) throws -> [Diagnostic] {
        var found: [Diagnostic] = []
        schema.check(try record(text), at: SourceLocation(file: "f", record: 3)) { diagnostic in
            found.append(diagnostic)
            return true
        }
        return found
    }

    /// The error compiling `text` gives; nil when it compiles.
    static func compileError(_ text: String) throws -> FerryError? {
        let document = try value(text)
        do {
            _ = try Schema(document: document, source: "test")
            return nil
        } catch {
            return error
        }
    }
}
