import Foundation
import Testing

/// Files that `ferry edit` writes again rather than splices (plists,
/// bundles, gzip) read back in other tools: Python's `plistlib`, `gzip`
/// and `csv`, and ferry's own readers.
@Suite struct EditInteropTests {
    static func python(_ script: String, _ arguments: [String]) throws -> ProcessResult {
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, timeout: 60)
        try #require(!result.timedOut, "python3 hung")
        return result
    }

    static func ferry(_ arguments: [String]) throws {
        let result = try Ferry.run(arguments + ["--quiet"])
        try #require(result.status == 0, "ferry \(arguments.joined(separator: " ")) failed: \(result.err)")
    }

    @Test(arguments: ["products.plist", "products.xml.plist"])
    func plistlibReadsAnEditedPlist(name: String) throws {
        let folder = try ScratchFolder()
        let path = folder.path(name)
        try Self.ferry(["convert", TestPaths.example("products.csv"), path, "--to", name.hasPrefix("products.xml") ? "xml1" : "plist"])
        try Self.ferry(["edit", path, "Wii", "--set", "price=249", "--photo", TestPaths.example("photos/wii.png")])
        try Self.ferry(["add", path, "--set", "name=PS5", "--set", "price=499.5"])
        try Self.ferry(["remove", path, "1"])
        let script = """
            import plistlib, sys
            records = plistlib.load(open(sys.argv[1], 'rb'))
            print(sys.argv[1].endswith('.xml.plist') == open(sys.argv[1], 'rb').read().startswith(b'<?xml'))
            for r in records:
                print(r['name'], r['price'], type(r.get('photo')).__name__)
            """
        let result = try Self.python(script, [path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "True\nWii 249 bytes\nWireless Controller 19.99 str\nPS5 499.5 NoneType\n")
    }

    @Test func gzipAndCSVReadAnEditedCSVGz() throws {
        let folder = try ScratchFolder()
        let path = folder.path("books.csv.gz")
        try Self.ferry(["convert", TestPaths.example("books.json"), path, "--delimiter", ";", "--line-ending", "crlf"])
        try Self.ferry(["edit", path, "1", "--set", "pages=999"])
        let script = """
            import csv, gzip, io, sys
            text = gzip.open(sys.argv[1], 'rb').read().decode('utf-8')
            print('\\r\\n' in text)
            rows = list(csv.DictReader(io.StringIO(text, newline=''), delimiter=';'))
            print(rows[0]['pages'], len(rows))
            """
        let result = try Self.python(script, [path])
        #expect(result.status == 0, "\(result.err)")
        let books = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestPaths.example("books.json")))) as? [Any])
        #expect(result.out == "True\n999 \(books.count)\n")
    }

    /// The gzip header keeps the name it stored; the time it stored
    /// becomes the edit's, and `gzip -t` finds the file sound.
    @Test func anEditedGzipKeepsItsStoredName() throws {
        let folder = try ScratchFolder()
        let path = folder.path("shop.csv.gz")
        let make = """
            import gzip, sys
            with open(sys.argv[1], 'wb') as f:
                with gzip.GzipFile(filename='export-2019.csv', mode='wb', fileobj=f, mtime=1000000000) as g:
                    g.write(b'name,price\\nWii,269\\nXbox 360,299\\n')
            """
        #expect(try Self.python(make, [path]).status == 0)
        try Self.ferry(["edit", path, "1", "--set", "price=249"])
        let check = """
            import gzip, subprocess, sys, time
            data = open(sys.argv[1], 'rb').read()
            flags, mtime = data[3], int.from_bytes(data[4:8], 'little')
            name = data[10:data.index(0, 10)].decode('latin-1') if flags & 8 else None
            print(name, mtime > 1000000000 and mtime <= time.time() + 5)
            print(gzip.decompress(data).decode())
            print(subprocess.run(['gzip', '-t', sys.argv[1]]).returncode)
            """
        let result = try Self.python(check, [path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "export-2019.csv True\nname,price\nWii,249\nXbox 360,299\n\n0\n")
    }

    @Test func bundleKeepsItsPhotosAndTakesNewOnes() throws {
        let folder = try ScratchFolder()
        let bundle = folder.path("products.ferry.tgz")
        try Self.ferry(["convert", TestPaths.example("products.json"), bundle])
        try Self.ferry(["add", bundle, "--set", "name=PS5", "--set", "price=499", "--photo", TestPaths.example("photos/wii.png")])
        try Self.ferry(["edit", bundle, "Xbox 360", "--no-photo"])
        let listed = try Ferry.run(["list", bundle, "--report-format", "json"])
        #expect(listed.status == 0, "\(listed.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout)) as? [String: Any])
        #expect(report["format"] as? String == "bundle")
        let records = try #require(report["records"] as? [[String: Any]])
        #expect(records.map { ($0["fields"] as? [String: Any])?["name"] as? String } == ["Xbox 360", "Wii", "Wireless Controller", "PS5"])
        let photos = records.map { ($0["photo"] as? [String: Any])?["type"] as? String }
        #expect(photos == [nil, "image/png", "image/png", "image/png"])
    }
}
