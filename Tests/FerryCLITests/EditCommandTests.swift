import Foundation
import Testing

@testable import FerryCommandLine

/// `ferry list`, `add`, `edit` and `remove`, run as the built binary.
@Suite struct EditCommandTests {
    static let csv = "\u{FEFF}name;price;sku\r\nWii;269;A-1\r\n\"Xbox; 360\";299.00;A-2\r\n"

    @Test func addEditRemoveKeepTheCSVLayout() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", Self.csv)
        let added = try Ferry.run(["add", path, "--set", "name=PS5", "--set", "price=499", "--set", "sku=A-3"])
        #expect(added.status == 0, "\(added.err)")
        #expect(added.err == "\(path): record 3 was added\n")
        let edited = try Ferry.run(["edit", path, "A-2", "--set", "price=249.50", "--quiet"])
        #expect(edited.status == 0 && edited.err.isEmpty, "\(edited.err)")
        let removed = try Ferry.run(["remove", path, "1"])
        #expect(removed.status == 0, "\(removed.err)")
        #expect(
            String(decoding: try folder.read("p.csv"), as: UTF8.self)
                == "\u{FEFF}name;price;sku\r\n\"Xbox; 360\";249.50;A-2\r\nPS5;499;A-3\r\n")
    }

    /// A new row goes right after the last record, before trailing blank
    /// lines and rows of delimiters only, with the file's line ends.
    @Test(arguments: ["\n", "\r\n"]) func addGoesRightAfterTheLastRecord(lineEnd: String) throws {
        let folder = try ScratchFolder()
        let rows = ["name,price", "Wii,269"]
        let path = try folder.write("p.csv", rows.joined(separator: lineEnd) + lineEnd + lineEnd + lineEnd)
        let added = try Ferry.run(["add", path, "--set", "name=PS5", "--set", "price=499"])
        #expect(added.status == 0, "\(added.err)")
        #expect(
            String(decoding: try folder.read("p.csv"), as: UTF8.self)
                == (rows + ["PS5,499"]).joined(separator: lineEnd) + lineEnd + lineEnd + lineEnd)
    }

    /// Excel's export: a `sep=;` line, a decimal comma with thousands, a
    /// row of delimiters only below the table.
    @Test func excelExportsAreEditedWithADecimalComma() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", "sep=;\r\nname;price\r\nWii;1.269,00\r\n;;\r\n")
        let edited = try Ferry.run(["edit", path, "1", "--set", "price=5,25", "--decimal-comma"])
        #expect(edited.status == 0, "\(edited.err)")
        let added = try Ferry.run(["add", path, "--set", "name=PS5", "--set", "price=1.234,5", "--decimal-comma"])
        #expect(added.status == 0, "\(added.err)")
        #expect(
            String(decoding: try folder.read("p.csv"), as: UTF8.self)
                == "sep=;\r\nname;price\r\nWii;5,25\r\nPS5;1234,5\r\n;;\r\n")
        let before = try folder.read("p.csv")
        let bad = try Ferry.run(["add", path, "--set", "name=X", "--set", "price=1.23,4", "--decimal-comma"])
        #expect(bad.status == 2)
        #expect(bad.diagnosticCodes == ["edit.valueType"])
        #expect(try folder.read("p.csv") == before)
    }

    @Test func rejectedEditExitsOneAndChangesNothing() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", Self.csv)
        let before = try folder.read("p.csv")
        let result = try Ferry.run(["edit", path, "A-1", "--set", "price=-5"])
        #expect(result.status == 1)
        #expect(result.diagnostics == [DiagnosticLine("\(path): error: x (record 1, field 'price') [record.negative]")])
        #expect(try folder.read("p.csv") == before)
        let empty = try Ferry.run(["add", path, "--set", "price=5"])
        #expect(empty.status == 1)
        #expect(empty.diagnosticCodes == ["record.missingField"])
        #expect(try folder.read("p.csv") == before)
    }

    @Test func selectorErrorsAreUsageErrors() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.json", #"[{"name":"Wii","price":1},{"name":"Wii","price":2}]"#)
        let ambiguous = try Ferry.run(["remove", path, "Wii"])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.diagnosticCodes == ["edit.ambiguousKey"])
        #expect(ambiguous.err.contains("1: Wii; 2: Wii"))
        let missing = try Ferry.run(["edit", path, "PS5", "--set", "price=1"])
        #expect(missing.status == 2)
        #expect(missing.diagnosticCodes == ["edit.noSuchRecord"])
        let conflicting = try Ferry.run(["edit", path, "1", "--photo", "x.png", "--no-photo"])
        #expect(conflicting.status == 2)
        #expect(conflicting.diagnosticCodes == ["usage.conflictingOptions"])
    }

    @Test func archivesAreEditedAndListed() throws {
        let folder = try ScratchFolder()
        let archive = try folder.write("Products", [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.example("Products")))))
        let before = try folder.read("Products")
        let result = try Ferry.run(["edit", archive, "1", "--set", "price=-1"])
        #expect(result.status == 1)
        #expect(result.diagnostics == [DiagnosticLine("\(archive): error: x (record 1, field 'price') [record.negative]")])
        #expect(try folder.read("Products") == before)
        // Listing only reads.
        let listed = try Ferry.run(["list", archive])
        #expect(listed.status == 0, "\(listed.err)")
        // The key is the name (no sku): no column of its own.
        #expect(listed.out.split(separator: "\n").map(String.init) == [
            "#  name                 price  photo",
            "1  Xbox 360             299.0  png, 349 bytes",
            "2  Wii                  269.0  png, 180 bytes",
            "3  Wireless Controller  19.99  png, 296 bytes",
        ])
    }

    // MARK: - Photos

    @Test func photoIsStoredAsConvertWritesItAndListed() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.json", #"[{"name":"Wii","price":269}]"#)
        let photo = TestPaths.example("photos/wii.png")
        let size = try TestPaths.examplePhoto("wii.png").count
        #expect(try Ferry.run(["edit", path, "Wii", "--photo", photo]).status == 0)
        let text = String(decoding: try folder.read("p.json"), as: UTF8.self)
        #expect(text.hasPrefix(#"[{"name":"Wii","price":269,"photo":"data:image/png;base64,iVBOR"#))
        let listed = try Ferry.run(["list", path])
        #expect(listed.out.split(separator: "\n").last.map(String.init) == "1  Wii   269    png, \(size.formatted(.number.locale(Locale(identifier: "en_US")))) bytes")
        #expect(try Ferry.run(["edit", path, "1", "--no-photo"]).status == 0)
        #expect(String(decoding: try folder.read("p.json"), as: UTF8.self) == #"[{"name":"Wii","price":269}]"#)
        let notImage = try Ferry.run(["edit", path, "1", "--photo", path])
        #expect(notImage.status == 1)
        #expect(notImage.diagnosticCodes == ["photo.notImage"])
    }

    // MARK: - list

    @Test func listGivesAPipeEveryColumn() throws {
        let folder = try ScratchFolder()
        let long = String(repeating: "long name ", count: 20)
        let path = try folder.write("b.jsonl", "{\"title\":\"\(long)\",\"author\":\"A\",\"pages\":10}\n")
        let result = try Ferry.run(["list", path], environment: ["COLUMNS": "40"])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1].contains(long.trimmingCharacters(in: .whitespaces)))
        #expect(lines[1].hasSuffix("A       10"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func listOnATerminalFitsItsWidth() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", "name,price,sku\nWii Sports,84.99,GS-0000001\nRock Band Slim,29.99,GS-0000002\n")
        let ferry = try #require(TestPaths.ferry).path
        // script(1) runs ferry on a pseudo-terminal of no size: COLUMNS says the width.
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "env COLUMNS=30 '\(ferry)' list '\(path)'", "/dev/null"])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\r\n").map(String.init)
        // The key is the sku, a main field: no column of its own. Cut to
        // six characters each, the columns still take 32: the last (photo) goes.
        #expect(lines == ["#  name    price  sku", "1  Wii S…  84.99  GS-00…", "2  Rock …  29.99  GS-00…"])
    }

    @Test func listReportsJSON() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", Self.csv)
        let result = try Ferry.run(["list", path, "--report-format", "json"])
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(report["format"] as? String == "csv")
        #expect(report["kind"] as? String == "product")
        #expect(report["key"] as? [String] == ["sku"])
        let records = try #require(report["records"] as? [[String: Any]])
        #expect(records.map { $0["record"] as? Int } == [1, 2])
        #expect(records.map { $0["key"] as? String } == ["A-1", "A-2"])
        let fields = try #require(records[1]["fields"] as? [String: Any])
        #expect(fields["name"] as? String == "Xbox; 360")
        #expect(records[1]["photo"] is NSNull)
    }

    @Test func tableFitsAWidthByCuttingTheWidestColumn() {
        let table = TextTable(
            header: ["#", "key", "title", "photo"],
            rows: [["0", "Dune / Frank Herbert", "Dune, the first of six novels", "png, 1,234 bytes"]])
        let fitted = table.lines(fittingIn: 50)
        #expect(fitted.allSatisfy { $0.count <= 50 })
        // The widest columns lose a character each in turn, so they end alike.
        #expect(fitted == ["#  key             title           photo", "0  Dune / Frank …  Dune, the fir…  png, 1,234 byt…"])
        #expect(table.lines(fittingIn: nil)[1] == "0  Dune / Frank Herbert  Dune, the first of six novels  png, 1,234 bytes")
        // A line break in a cell is a space: the row stays one line.
        #expect(TextTable(header: ["#", "name"], rows: [["0", "Wii\nU"]]).lines(fittingIn: nil) == ["#  name", "0  Wii U"])
        // Too narrow for every column at its least: the last ones go.
        let narrow = table.lines(fittingIn: 20)
        #expect(narrow.allSatisfy { $0.count <= 20 })
        #expect(narrow[0] == "#  key     title")
    }

    // MARK: - Files with invalid records

    /// A file with records that break the rules (a negative price, a price
    /// that is no number) is listed whole and edited: the edit that fixes a
    /// record, or removes it, is saved; one whose result is invalid is
    /// refused, naming its record; records are numbered as validate numbers
    /// them.
    @Test func aFileWithInvalidRecordsIsListedAndFixed() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", "name,price,sku\nXbox 360,299.00,A-1\nWii,-1,A-2\nPad,abc,A-3\nCam,5,A-4\n")
        let validated = try Ferry.run(["validate", path])
        #expect(validated.diagnostics.map(\.record) == [2, 3])
        let listed = try Ferry.run(["list", path])
        #expect(listed.status == 0, "\(listed.err)")
        #expect(listed.out.split(separator: "\n").map(String.init) == [
            "#  name      price   sku  photo",
            "1  Xbox 360  299.00  A-1",
            "2  Wii       -1      A-2",
            "3  Pad       abc     A-3",
            "4  Cam       5       A-4",
        ])
        // Record 3, as validate numbered it, gets a price.
        let fixed = try Ferry.run(["edit", path, "3", "--set", "price=1"])
        #expect(fixed.status == 0, "\(fixed.err)")
        #expect(fixed.err == "\(path): record 3 was changed\n")
        // An edit whose result is invalid is refused, at its record.
        let refused = try Ferry.run(["edit", path, "A-2", "--set", "name="])
        #expect(refused.status == 1)
        #expect(refused.diagnostics.map(\.code) == ["record.emptyField"])
        #expect(refused.diagnostics.map(\.record) == [2])
        let removed = try Ferry.run(["remove", path, "A-2"])
        #expect(removed.status == 0, "\(removed.err)")
        #expect(String(decoding: try folder.read("p.csv"), as: UTF8.self) == "name,price,sku\nXbox 360,299.00,A-1\nPad,1,A-3\nCam,5,A-4\n")
        #expect(try Ferry.run(["validate", path]).status == 0)
    }

    /// The key is the file's, chosen by the kind: after one product loses
    /// its sku, the others are still found by theirs, and that one by its
    /// number.
    @Test func theKeyStaysTheFilesAfterARecordLosesIt() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.jsonl", "{\"name\":\"Wii\",\"price\":1,\"sku\":\"A-1\"}\n{\"name\":\"Xbox\",\"price\":2,\"sku\":\"A-2\"}\n")
        #expect(try Ferry.run(["edit", path, "A-1", "--unset", "sku"]).status == 0)
        let edited = try Ferry.run(["edit", path, "A-2", "--set", "price=3"])
        #expect(edited.status == 0, "\(edited.err)")
        #expect(try Ferry.run(["edit", path, "1", "--set", "sku=A-9"]).status == 0)
        #expect(String(decoding: try folder.read("p.jsonl"), as: UTF8.self) == "{\"name\":\"Wii\",\"price\":1,\"sku\":\"A-9\"}\n{\"name\":\"Xbox\",\"price\":3,\"sku\":\"A-2\"}\n")
        let byName = try Ferry.run(["edit", path, "Wii", "--set", "price=4"])
        #expect(byName.status == 2)
        #expect(byName.diagnosticCodes == ["edit.noSuchRecord"])
    }

    @Test(arguments: ["list", "add", "edit", "remove"])
    func helpShowsExamples(command: String) throws {
        let result = try Ferry.run(["help", command])
        #expect(result.status == 0)
        #expect(result.out.contains("ferry \(command) "))
    }
}
