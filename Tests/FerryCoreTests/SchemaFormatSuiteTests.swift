import Testing

@testable import FerryCore

/// The formats the JSON Schema suite names besides Ferry's first ones, at
/// the edges of their RFCs: each rule has a value just inside and one just
/// outside it.
@Suite struct SchemaFormatSuiteTests {
    @Test(arguments: [
        ("08:30:06Z", true), ("23:59:60Z", true), ("01:29:60+01:30", true), ("00:29:60-23:30", true),
        ("23:20:50.52z", true), ("12:34:56-00:00", true),
        ("12:00:00", false), ("22:59:60Z", false), ("23:59:60+01:00", false), ("24:00:00Z", false),
        ("08:30:06-8:000", false), ("01:01:01,1111", false), ("1\u{09E8}:00:00Z", false), ("01:02:03Z+00:30", false),
        ("2020-11-28T23:55:45Z", false), ("08:30:06 PST", false),
    ])
    func time(_ text: String, valid: Bool) {
        #expect(SchemaFormat.time.accepts(text) == valid)
    }

    @Test(arguments: [
        ("P4DT12H30M5S", true), ("P2W", true), ("PT36H", true), ("P1Y2M", true), ("P1M2D", true), ("PT1M2S", true),
        ("P01D", true), ("PT0S", true),
        ("P", false), ("PT", false), ("P1YT", false), ("PT1D", false), ("P2D1Y", false), ("P1Y2D", false),
        ("PT1H2S", false), ("P1Y2W", false), ("P1WT1H", false), ("PT0.5S", false), ("P1", false), ("-P1D", false),
        ("P1D\n", false), ("P\u{09E8}Y", false),
    ])
    func duration(_ text: String, valid: Bool) {
        #expect(SchemaFormat.duration.accepts(text) == valid)
    }

    @Test(arguments: [
        ("www.example.com", true), ("1host", true), ("a--b.com", true), ("xn--9n2bp8q.xn--9t4b11yi5a", true),
        (String(repeating: "a", count: 63) + ".com", true),
        ("", false), (".", false), ("example.", false), ("-host", false), ("host-", false), ("host_name", false),
        (String(repeating: "a", count: 64) + ".com", false), ("example\u{FF0E}com", false), ("ab--c.com", false),
        ("\u{212A}elvin.example.com", false), ("example.com\n", false),
        // A-labels: the Punycode decoded, the U-label checked (RFC 5891, 5892).
        ("xn--ll-0ea", true), ("xn--zca29lwxobi7a", true), ("xn--qmbc", true), ("xn--4dbc5h", true), ("xn--k8j5u", true),
        ("xn--11b2ezcw70k", true), ("XN--9N2BP8Q.com", true),
        ("xn--X", false), ("xn--al-0ea", false), ("xn--hello-zed", false), ("xn--07jt112bpxg", false),
        ("xn--chb89f", false), ("xn--wva3j", false), ("xn--5db1e", false), ("xn--vek", false), ("xn--ngb6iyr", false),
        ("xn--02b508i", false), ("XN--aa---o47jg78q", false), ("xn--abc-", false), ("xn--", false), ("xn--a!b", false),
    ])
    func hostname(_ text: String, valid: Bool) {
        #expect(SchemaFormat.hostname.accepts(text) == valid)
    }

    @Test(arguments: [
        ("실례.테스트", true), ("a\u{3002}b", true), ("a\u{FF0E}b", true), ("a\u{FF61}b", true), ("l\u{B7}l", true),
        ("\u{DF}\u{3C2}\u{F0B}\u{3007}", true), ("\u{915}\u{94D}\u{200D}\u{937}", true), ("xn--ihqwcrb4cv8a8dqg056pqjye", true),
        ("", false), ("\u{3002}", false), ("example\u{FF61}", false), ("a..b", false), ("\u{302E}실례", false),
        ("\u{300}hello", false), ("-> $1.00 <--", false), ("a\u{B7}l", false), ("\u{915}\u{200D}\u{937}", false),
        ("\u{30FB}", false), ("Ab\u{E9}", false), ("xn--example-", false), (String(repeating: "a", count: 64), false),
    ])
    func idnHostname(_ text: String, valid: Bool) {
        #expect(SchemaFormat.idnHostname.accepts(text) == valid)
    }

    @Test(arguments: [
        ("192.168.0.1", true), ("0.0.0.0", true), ("255.255.255.255", true),
        ("256.0.0.1", false), ("087.10.0.1", false), ("1.2.3", false), ("1.2.3.4.5", false), ("192.168.1.0/24", false),
        ("1\u{09E8}7.0.0.1", false), ("0x7f.0.0.1", false),
    ])
    func ipv4(_ text: String, valid: Bool) {
        #expect(SchemaFormat.ipv4.accepts(text) == valid)
    }

    @Test(arguments: [
        ("::1", true), ("::", true), ("1:2:3:4:5:6:7:8", true), ("::ffff:192.168.0.1", true), ("2001:db8::", true),
        ("1000:1000:1000:1000:1000:1000:255.255.255.255", true),
        ("1:2:3:4:5:6:7", false), ("1:2:::3", false), ("1::2::3", false), ("fe80::a%eth1", false), ("12345::", false),
        (" ::1", false), ("127.0.0.1", false), ("1:2:3:4:1.2.3", false), (":1:2:3:4:5:6:7", false),
    ])
    func ipv6(_ text: String, valid: Bool) {
        #expect(SchemaFormat.ipv6.accepts(text) == valid)
    }

    @Test(arguments: [
        ("2eb8aa08-aa98-11ea-b4aa-73b441d16380", true), ("2EB8AA08-AA98-11EA-B4AA-73B441D16380", true),
        ("00000000-0000-0000-0000-000000000000", true),
        ("2eb8aa08-aa98-11ea-b4aa-73b441d1638", false), ("2eb8aa08aa9811eab4aa73b441d16380", false),
        ("2eb8aa08-aa98-11ea-b4ga-73b441d16380", false), ("2eb8-aa08-aa98-11ea-b4aa73b441d16380", false),
    ])
    func uuid(_ text: String, valid: Bool) {
        #expect(SchemaFormat.uuid.accepts(text) == valid)
    }

    @Test(arguments: [
        ("", true), ("/", true), ("/foo/0", true), ("/a~1b/c~0d", true), ("//", true), ("/é", true),
        ("a", false), ("/~", false), ("/~2", false), ("#/a", false),
    ])
    func jsonPointer(_ text: String, valid: Bool) {
        #expect(SchemaFormat.jsonPointer.accepts(text) == valid)
    }

    @Test(arguments: [
        ("1", true), ("0/foo/bar", true), ("0#", true), ("120/foo", true), ("100", true), ("0//", true),
        ("", false), ("/foo", false), ("-1/foo", false), ("+1/foo", false), ("01/a", false), ("0##", false),
        ("1#/foo", false), ("\u{0661}/foo", false), ("0/~2", false),
    ])
    func relativeJSONPointer(_ text: String, valid: Bool) {
        #expect(SchemaFormat.relativeJSONPointer.accepts(text) == valid)
    }

    @Test(arguments: [
        ("http://example.com/{term:1}/{term}", true), ("dictionary/{term:1}/{term}", true), ("{+path}/x{?q,page*}", true),
        ("{var.name}", true), ("{%41b}", true), ("it's", true), ("no variables", false),
        ("{term", false), ("x}", false), ("{}", false), ("{=x}", false), ("{x:0}", false), ("{x:10000}", false),
        ("{a..b}", false), ("100%", false), ("<x>", false),
    ])
    func uriTemplate(_ text: String, valid: Bool) {
        #expect(SchemaFormat.uriTemplate.accepts(text) == valid)
    }

    @Test(arguments: [
        ("http://foo.bar/?baz=qux#quux", true), ("//foo.bar/?baz=qux#quux", true), ("/abc", true), ("abc", true),
        ("#fragment", true), ("", true), ("?query=1", true), ("//", true), ("./this:that", true),
        ("http://999.999.999.999/", true),
        ("\\\\WINDOWS\\fileshare", false), ("#frag\\ment", false), ("/foobar\u{AE}.txt", false), ("/%zz", false),
        ("/[::1]", false), ("//example.com:abc/p", false), ("//a@b@example.com/", false), ("1:b", false),
        ("//[::ffff:192.168.0.01]/p", false),
    ])
    func uriReference(_ text: String, valid: Bool) {
        #expect(SchemaFormat.uriReference.accepts(text) == valid)
    }

    @Test(arguments: [
        ("http://ƒøø.ßår/?∂éœ=πîx#πîüx", true), ("http://[2001:db8::1]/", true), ("urn:ex:π", true),
        ("/abc", false), ("âππ", false), ("http://2001:0db8:85a3:0000:0000:8a2e:0370:7334", false),
        ("http://exa mple", false),
    ])
    func iri(_ text: String, valid: Bool) {
        #expect(SchemaFormat.iri.accepts(text) == valid)
    }

    @Test(arguments: [
        ("/âππ", true), ("âππ", true), ("#ƒrägmênt", true), ("#ƒräg\\mênt", false), ("\\\\WINDOWS\\fil", false),
    ])
    func iriReference(_ text: String, valid: Bool) {
        #expect(SchemaFormat.iriReference.accepts(text) == valid)
    }

    @Test(arguments: [
        ("실례@실례.테스트", true), ("joe.bloggs@example.com", true), ("\"é x\"@example.com", true),
        ("2962", false), ("실례@", false), (".실례@example.com", false),
    ])
    func idnEmail(_ text: String, valid: Bool) {
        #expect(SchemaFormat.idnEmail.accepts(text) == valid)
        // The ASCII form takes none of the text beyond ASCII.
        if text.unicodeScalars.contains(where: { !$0.isASCII }) { #expect(!SchemaFormat.email.accepts(text)) }
    }

    @Test(arguments: [
        ("([abc])+\\s+$", true), ("^\\cC\\p{Letter}\\u{1F600}$", true), ("(?<y>\\d{4})-\\k<y>", true),
        ("^(abc]", false), ("\\a", false), ("a{2,1}", false), ("(?<=a)b", false), ("\\2(a)", false),
    ])
    func regex(_ text: String, valid: Bool) {
        #expect(SchemaFormat.regex.accepts(text) == valid)
    }
}
