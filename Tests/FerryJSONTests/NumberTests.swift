import FerryJSON
import FerryKit
import Testing

/// Numbers keep their kind and their exact value: integers stay integers,
/// doubles keep their shortest spelling.
@Suite struct NumberTests {
    @Test(arguments: [
        (Value.double(19.99), "19.99"),
        (.double(67.0), "67.0"),
        (.double(0.1), "0.1"),
        (.double(0.07), "0.07"),
        (.double(1234567.5), "1234567.5"),
        (.double(9_999_999_999_999.99), "9999999999999.99"),
        (.double(1e-7), "1e-07"),
        (.double(1.7976931348623157e308), "1.7976931348623157e+308"),
        (.double(.leastNonzeroMagnitude), "5e-324"),
        (.double(0.30000000000000004), "0.30000000000000004"),
        (.double(1e16), "1e+16"),
        (.double(-2.5), "-2.5"),
        (.double(0.0), "0.0"),
        (.integer(0), "0"),
        (.integer(67), "67"),
        (.integer(-1), "-1"),
        (.integer(Int64.max), "9223372036854775807"),
        (.integer(Int64.min), "-9223372036854775808"),
    ])
    func roundTrip(_ value: Value, spelling: String) throws {
        let record = Record([("n", value)])
        try JSONTest.roundTrip([record], style: .lines, golden: "{\"n\":\(spelling)}\n")
        try JSONTest.roundTrip([record], style: .compact, golden: "[{\"n\":\(spelling)}]\n")
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let bytes = try JSONTest.write([Record([("n", .double(-0.0))])], style: .lines)
        #expect(String(decoding: bytes, as: UTF8.self) == "{\"n\":-0.0}\n")
        let value = try JSONTest.records(MemoryInput(bytes), layout: .lines).first?["n"]
        #expect(value == .number(NumberText(unchecked: "-0.0")))
        guard case .double(let number) = value?.numeric else {
            Issue.record("-0.0 read back as \(String(describing: value))")
            return
        }
        #expect(number == 0 && number.sign == .minus)
    }

    @Test(arguments: [
        ("0", Value.integer(0)),
        ("-0", .integer(0)),
        ("1.0", .double(1)),
        ("1e2", .double(100)),
        ("1E+2", .double(100)),
        ("25e-1", .double(2.5)),
        ("1e-400", .double(0)),
        ("-9223372036854775808", .integer(Int64.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808.0)),
        ("-9223372036854775809", .double(-9_223_372_036_854_775_808.0)),
        ("12345678901234567890123", .double(1.2345678901234568e22)),
        ("9007199254740993", .integer(9_007_199_254_740_993)),
        ("9007199254740993.0", .double(9_007_199_254_740_992)),
        ("2.2250738585072011e-308", .double(Double(bitPattern: 0x000F_FFFF_FFFF_FFFF))),
        ("0.1000000000000000055511151231257827", .double(0.1)),
        ("4.9406564584124654e-324", .double(.leastNonzeroMagnitude)),
        ("1.7976931348623158e308", .double(1.7976931348623157e308)),
    ])
    func readsSpelling(_ spelling: String, as expected: Value) throws {
        let records = try JSONTest.records("{\"n\":\(spelling)}")
        #expect(records.first?["n"] == expected)
    }

    @Test(arguments: [
        ("[{\"n\":01}]", "json.unexpectedCharacter", 8),
        ("[{\"n\":1.}]", "json.invalidNumber", 9),
        ("[{\"n\":-}]", "json.invalidNumber", 8),
        ("[{\"n\":.5}]", "json.unexpectedCharacter", 7),
        ("[{\"n\":1e}]", "json.invalidNumber", 9),
        ("[{\"n\":+1}]", "json.unexpectedCharacter", 7),
        ("[{\"n\":NaN}]", "json.unexpectedCharacter", 7),
        ("[{\"n\":1", "json.unexpectedEnd", 8),
    ])
    func malformed(_ text: String, code: String, column: Int) throws {
        let error = try #require(JSONTest.readError(text))
        #expect(error.code.rawValue == code)
        #expect(error.place == [1, column])
        #expect(error.location.record == 0)
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan])
    func nonFiniteDoublesAreRefused(_ number: Double) throws {
        let record = Record([("name", .string("a")), ("price", .double(number))])
        let error = try #require(throws: FerryError.self) { try JSONTest.write([record], style: .pretty) }
        #expect(error.code == .jsonNonFiniteNumber)
        #expect(error.location.field == "price")
        #expect(error.location.record == 0)
    }
}
