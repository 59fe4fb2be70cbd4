import Testing

@testable import FerryCore

/// `IndentedJSONWriter` writes, member by member, the bytes that
/// `JSONText.appendValue` writes for the whole value from level 0: empty
/// containers on their line, nested ones indented, text escaped.
@Suite struct IndentedJSONWriterTests {
    static func appended(_ value: Value) throws -> String {
        var buffer = WriteBuffer(capacity: 16)
        defer { buffer.release() }
        try JSONText.appendValue(value, to: &buffer, indentLevel: 0)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test func writesWhatAppendValueWrites() throws {
        let nested = Value.object(OrderedObject([("a", .array([])), ("b", .object(OrderedObject()))]))
        let expected = Value.object(
            OrderedObject([
                ("empty", .object(OrderedObject())), ("list", .array([.string("x\"y"), .null, .integer(-3)])),
                ("none", .array([])), ("nested", nested), ("text", .string("é\n")), ("count", .integer(12)),
                ("missing", .null), ("rows", .array([.object(OrderedObject([("k", .integer(1))])), .object(OrderedObject())])),
            ]))
        var writer = IndentedJSONWriter(capacity: 1)
        defer { writer.release() }
        writer.beginObject()
        writer.key("empty")
        writer.beginObject()
        writer.endObject()
        writer.key("list")
        writer.beginArray()
        writer.element()
        writer.string("x\"y")
        writer.element()
        writer.string(nil)
        writer.element()
        writer.integer(-3)
        writer.endArray()
        writer.key("none")
        writer.beginArray()
        writer.endArray()
        writer.key("nested")
        try writer.value(nested)
        writer.member("text", string: "é\n")
        writer.member("count", integer: 12)
        writer.member("missing", integer: nil)
        writer.key("rows")
        writer.beginArray()
        writer.element()
        writer.beginObject()
        writer.key("k")
        writer.integer(1)
        writer.endObject()
        writer.element()
        try writer.value(.object(OrderedObject()))
        writer.endArray()
        writer.endObject()
        #expect(writer.text == (try Self.appended(expected)))
    }
}
