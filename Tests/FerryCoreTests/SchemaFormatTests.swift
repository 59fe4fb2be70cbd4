import Testing

@testable import FerryCore

/// The formats a schema may name, each on values that pass and values that
/// do not, at the edges of its rule.
@Suite struct SchemaFormatTests {
    @Test(arguments: [
        // ISBN-10: weights 10…1, a multiple of 11; X is 10, last only.
        ("0-306-40615-2", true), ("0306406152", true), ("0 306 40615 2", true), ("0-8044-2957-X", true),
        ("080442957X", true), ("0-306-40615-3", false), ("0-8044-2957-5", false), ("X306406152", false),
        ("03064X6152", false), ("030640615", false),
        // ISBN-13: 978 or 979, weights 1 and 3, a multiple of 10.
        ("978-0-306-40615-7", true), ("9780306406157", true), ("978 0 306 40615 7", true), ("9783981786248", true),
        ("979-10-90636-07-1", true), ("978-0-306-40615-8", false), ("9780306406150", false),
        ("978030640615X", false), ("97803064061570", false),
        // A valid EAN-13 check digit, but not a book's prefix.
        ("4006381333931", false),
        // Separators only between digits, one at a time.
        ("-0306406152", false), ("0306406152-", false), ("0--306406152", false), ("0_306406152", false),
        ("", false), ("ISBN 0306406152", false),
    ])
    func isbn(_ text: String, valid: Bool) {
        #expect(SchemaFormat.isbn.accepts(text) == valid)
    }

    @Test(arguments: [
        ("EUR", true), ("GBP", true), ("USD", true), ("JPY", true), ("CHF", true), ("XAU", true), ("XCG", true),
        ("ZWG", true), ("BOV", true), ("XXX", true),
        ("XYZ", false), ("eur", false), ("Eur", false), ("EURO", false), ("EU", false), ("", false),
        ("HRK", false), ("ZWL", false), ("ANG", false), ("DEM", false), ("US$", false),
    ])
    func currency(_ text: String, valid: Bool) {
        #expect(SchemaFormat.currency.accepts(text) == valid)
    }

    /// An A-label is at most 63 bytes (RFC 5890), in an internationalized
    /// address too, where labels may otherwise be long; and a megabyte of
    /// host name is refused before it is looked at.
    @Test func aLabelsAreAtMost63Bytes() {
        let short = "xn--" + String(repeating: "a", count: 50) + "-ehf"
        let long = "xn--" + String(repeating: "a", count: 70) + "-tih"
        #expect(SchemaFormat.idnEmail.accepts("joe@\(short).com"))
        #expect(!SchemaFormat.idnEmail.accepts("joe@\(long).com"))
        #expect(!SchemaFormat.idnHostname.accepts(String(repeating: "ü", count: 1 << 20)))
    }

    @Test func currencyListIsListOneWhole() {
        #expect(CurrencyCodes.all.count == 178)
        #expect(CurrencyCodes.all.allSatisfy { $0.utf8.count == 3 && $0.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A } })
        for code in ["AED", "AFN", "BRL", "CNY", "INR", "KRW", "MXN", "NGN", "RUB", "SLE", "VED", "VES", "XAD", "ZMW"] {
            #expect(CurrencyCodes.all.contains(code), "\(code)")
        }
    }

    @Test(arguments: [
        ("2024-02-29", true), ("2000-02-29", true), ("2023-02-28", true), ("2024-12-31", true), ("0001-01-01", true),
        ("2023-02-29", false), ("1900-02-29", false), ("2024-04-31", false), ("2024-13-01", false),
        ("2024-00-10", false), ("2024-01-00", false), ("2024-1-01", false), ("24-01-01", false), ("2024/01/01", false),
        ("2024-01-01T00:00:00Z", false), ("2024-01-01 ", false), ("٢٠٢٤-01-01", false),
    ])
    func date(_ text: String, valid: Bool) {
        #expect(SchemaFormat.date.accepts(text) == valid)
    }

    @Test(arguments: [
        ("2024-02-29T12:30:00Z", true), ("2024-02-29t12:30:00z", true), ("2024-02-29T12:30:00.123+05:30", true),
        ("2024-02-29T12:30:00-08:00", true), ("2024-02-29T00:00:00+00:00", true), ("2024-02-29T23:59:59.5Z", true),
        // A leap second is the last second of a UTC day, whatever the offset.
        ("1998-12-31T23:59:60Z", true), ("1998-12-31T15:59:60.123-08:00", true), ("1999-01-01T00:59:60+01:00", true),
        ("1998-12-31T23:58:60Z", false), ("1998-12-31T22:59:60Z", false), ("1998-12-31T23:59:61Z", false),
        ("2023-02-29T12:30:00Z", false), ("2024-02-29 12:30:00Z", false), ("2024-02-29T24:00:00Z", false),
        ("2024-02-29T12:60:00Z", false), ("2024-02-29T12:30:00", false), ("2024-02-29T12:30:00+25:00", false),
        ("2024-02-29T12:30:00+05:60", false), ("2024-02-29T12:30:00+0530", false), ("2024-02-29T12:30:00.Z", false),
        ("2024-02-29T12:30Z", false), ("2024-02-29", false),
    ])
    func dateTime(_ text: String, valid: Bool) {
        #expect(SchemaFormat.dateTime.accepts(text) == valid)
    }

    @Test(arguments: [
        ("joe.bloggs@example.com", true), ("te~st@example.com", true), ("~test@example.com", true),
        ("te.s.t@example.com", true), ("\"joe bloggs\"@example.com", true), ("\"joe..bloggs\"@example.com", true),
        ("joe.bloggs@[127.0.0.1]", true), ("joe.bloggs@[IPv6:::1]", true), ("joe@localhost", true),
        ("2962", false), (".test@example.com", false), ("test.@example.com", false), ("te..st@example.com", false),
        ("joe.bloggs@invalid=domain.com", false), ("joe.bloggs@[127.0.0.300]", false), ("joe@-example.com", false),
        ("@example.com", false), ("joe@", false), ("joe bloggs@example.com", false), ("joe@exa mple.com", false),
    ])
    func email(_ text: String, valid: Bool) {
        #expect(SchemaFormat.email.accepts(text) == valid)
    }

    @Test(arguments: [
        ("http://example.com/a?b=c#d", true), ("urn:isbn:0306406152", true), ("mailto:joe@example.com", true),
        ("file:///etc/hosts", true), ("http://[::1]:8080/", true), ("https://example.com/%20x", true),
        ("https://user:pw@example.com:443/p", true), ("tag:example.com,2024:x", true),
        ("//example.com", false), ("/a/b", false), ("a/b", false), ("http://exa mple.com", false),
        ("http://example.com/a b", false), ("http://example.com/%zz", false), ("1http://x", false),
        ("http://example.com/#a#b", false), ("http://例子.测试", false), ("http://example.com:80a/", false),
        ("http://example.com/<x>", false), ("", false),
    ])
    func uri(_ text: String, valid: Bool) {
        #expect(SchemaFormat.uri.accepts(text) == valid)
    }

    /// Photos are references or data: URIs, checked where they are read.
    @Test(arguments: ["photos/wii.png", "data:image/png;base64,AAAA", "", "/abs/path.png"])
    func photoTakesAnyString(_ text: String) {
        #expect(SchemaFormat.photo.accepts(text))
    }
}
