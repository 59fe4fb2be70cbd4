// MARK: - Indented JSON, written as it goes
//
// `JSONText.appendValue(_:to:indentLevel:)` lays out a `Value` that exists
// whole. A report of many diagnostics built that value first: an object of
// a dozen members per diagnostic, each key and text copied into it, then
// walked and freed again. `IndentedJSONWriter` lays out the same bytes
// member by member, as the caller hands them over; both ways start a member
// with `JSONText.startMember`, so they cannot drift apart.
//
//     writer.beginObject()                {
//     writer.key("record")                  "record": 3,
//     writer.integer(3)                     "arguments": [
//     writer.key("arguments")                 "price"
//     writer.beginArray()                   ]
//     writer.element()                    }
//     writer.string("price")
//     writer.endArray()
//     writer.endObject()
//
// Measured: `ferry validate` of 100,000 products against
// Scripts/bench-schemas/shop.schema.json, a JSON report of 2,826 errors
// (Scripts/count-instructions.sh): the rendering ran 58.8M instructions over
// a `Value`, about 21,000 an error, and 34.7M written as it goes (12,000 an
// error, of which 3,600 the message); the report's RSS at 1M products went
// from 96 MB to 71 MB.

extension JSONText {
    /// Starts member `index` (0-based) of an indented container whose
    /// members sit at `level`: a comma after the member before, then a line
    /// break and the indentation; only the comma when `level` is nil
    /// (compact JSON).
    @inline(__always)
    static func startMember(_ index: Int, level: Int?, to out: inout WriteBuffer) {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        if let level { appendLineBreak(level: level, to: &out) }
    }

    /// A line break and the indentation of `level`, two spaces a level.
    @inline(__always)
    static func appendLineBreak(level: Int, to out: inout WriteBuffer) {
        out.append(0x0A)
        out.append(repeating: UInt8(ascii: " "), count: level * 2)
    }
}

/// Writes indented JSON, the bytes `JSONText.appendValue(_:to:indentLevel:)`
/// writes for a value from level 0, one member at a time: a container is
/// opened, given its members (a key and a value each, or elements), and
/// closed. See the note above.
package struct IndentedJSONWriter {
    private var buffer: WriteBuffer
    /// How many containers are open.
    private var depth = 0
    /// How many members the innermost open container has so far.
    private var members = 0
    /// The same count for each container around it, the outermost first.
    private var outerMembers: [Int] = []

    package init(capacity: Int = 1 << 12) {
        buffer = WriteBuffer(capacity: capacity)
    }

    /// Frees the buffer; the writer is not used after.
    package mutating func release() { buffer.release() }

    /// The text written so far.
    package var text: String { String(decoding: buffer.contents, as: UTF8.self) }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts a member of the innermost object, which must be open: its
    /// key, a name that needs no escape (ASCII letters and digits, as the
    /// reports' are), written as it is; its value comes next.
    package mutating func key(_ name: StaticString) {
        assert(
            UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount).allSatisfy {
                $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
            }, "a key that needs an escape")
        startMember()
        buffer.append(UInt8(ascii: "\""))
        buffer.append(name)
        buffer.append("\": ")
    }

    /// Starts an element of the innermost array, which must be open.
    package mutating func element() { startMember() }

    /// A whole value, as `appendValue` lays it out at this depth.
    /// - Throws: `json.nonFiniteNumber` for an infinity or NaN.
    package mutating func value(_ value: Value) throws(FerryError) {
        try JSONText.appendValue(value, to: &buffer, indentLevel: depth)
    }

    /// A string, or null.
    package mutating func string(_ text: String?) {
        if let text { JSONText.appendQuoted(text, to: &buffer) } else { buffer.append("null") }
    }

    /// A whole number, or null.
    package mutating func integer(_ number: Int?) {
        if let number { JSONText.appendInteger(Int64(number), to: &buffer) } else { buffer.append("null") }
    }

    /// A member of the innermost object whose value is a string, or null.
    package mutating func member(_ name: StaticString, string text: String?) {
        key(name)
        string(text)
    }

    /// A member of the innermost object whose value is a whole number, or null.
    package mutating func member(_ name: StaticString, integer number: Int?) {
        key(name)
        integer(number)
    }

    private mutating func open(_ bracket: UInt8) {
        buffer.append(bracket)
        if depth > 0 { outerMembers.append(members) }
        depth += 1
        members = 0
    }

    private mutating func close(_ bracket: UInt8) {
        guard depth > 0 else { return }
        depth -= 1
        // An empty container closes on its line (`{}`), as `appendValue` writes it.
        if members > 0 { JSONText.appendLineBreak(level: depth, to: &buffer) }
        buffer.append(bracket)
        members = outerMembers.popLast() ?? 0
    }

    private mutating func startMember() {
        guard depth > 0 else { return }
        JSONText.startMember(members, level: depth, to: &buffer)
        members += 1
    }
}
