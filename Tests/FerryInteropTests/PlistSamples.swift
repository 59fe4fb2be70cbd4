import Foundation

/// Records that hold every kind of value a plist can, at the sizes where the
/// binary format changes how it stores them.
enum PlistSamples {
    /// Strings: ASCII (one byte a character) and not (UTF-16, with surrogate
    /// pairs for emoji), at lengths around 15, where the length moves out of
    /// the marker byte.
    static let strings: Typed = .dict([
        ("ascii", .string("plain")),
        ("empty", .string("")),
        ("fourteen", .string("abcdefghijklmn")),
        ("fifteen", .string("abcdefghijklmno")),
        ("sixteen", .string("abcdefghijklmnop")),
        ("latin", .string("héllo wörld")),
        ("fifteenUTF16", .string("ééééééééééééééé")),
        ("cjk", .string("中文字")),
        ("emoji", .string("😀🚢🇫🇷")),
        ("mixed", .string("a😀b\u{1D11E}c")),
        ("controls", .string("tab\tnewline\nquote\"backslash\\")),
        ("nul", .string("a\u{0}b")),
        ("bom", .string("\u{FEFF}x")),
        ("long", .string(String(repeating: "Ferry ⛴ ", count: 40))),
    ])

    /// Integers at every width boundary of the binary format (1, 2, 4 and 8
    /// bytes) and the ends of Int64.
    static let integers: Typed = .dict(
        [
            ("zero", 0), ("one", 1), ("minusOne", -1), ("i127", 127), ("i128", 128), ("i255", 255), ("i256", 256),
            ("i32767", 32767), ("i32768", 32768), ("i65535", 65535), ("i65536", 65536), ("minus129", -129),
            ("minus32769", -32769), ("int32Max", Int64(Int32.max)), ("twoTo31", 1 << 31),
            ("uint32Max", Int64(UInt32.max)), ("twoTo32", 1 << 32), ("int64Max", Int64.max), ("int64Min", Int64.min),
        ].map { ($0.0, Typed.integer($0.1)) })

    static let doubles: Typed = .dict(
        [
            ("zero", 0.0), ("negativeZero", -0.0), ("tenth", 0.1), ("half", 1.5), ("negative", -2.25),
            ("huge", 1e300), ("subnormal", Double.leastNonzeroMagnitude), ("greatest", Double.greatestFiniteMagnitude),
            ("price", 19.99), ("whole", 299.0),
        ].map { ($0.0, Typed.float($0.1)) })

    /// Bools, dates (before and after 1970 and 2001, with a fraction) and
    /// data at the length boundaries.
    static func others() throws -> Typed {
        .dict([
            ("yes", .bool(true)),
            ("no", .bool(false)),
            ("referenceDate", .date(0)),
            ("withFraction", .date(12345.5)),
            ("unixEpoch", .date(-978_307_200)),
            ("before1970", .date(-3_000_000_000)),
            ("billion", .date(1_000_000_000)),
            ("noBytes", .bytes([])),
            ("oneByte", .bytes([0xFF])),
            ("fifteenBytes", .bytes(Array(0..<15))),
            ("sixteenBytes", .bytes(Array(0..<16))),
            ("manyBytes", .bytes((0..<300).map { UInt8($0 % 256) })),
            ("png", .bytes(try ExampleData.photo("wii.png"))),
        ])
    }

    static let nested: Typed = .dict([
        ("emptyArray", .array([])),
        ("emptyObject", .dict([])),
        ("mixed", .array([.integer(7), .string("two"), .array([.float(3.5), .array([.bool(false)])])])),
        (
            "deep",
            .dict([("inner", .dict([("deeper", .dict([("list", .array([.integer(1), .integer(2), .integer(3)]))]))]))])
        ),
        ("objects", .array([.dict([("a", .integer(1))]), .dict([("b", .string("x"))])])),
    ])

    /// All of the above, one record each.
    static func allTypes() throws -> Typed { .array([strings, integers, doubles, try others(), nested]) }
}
