import FerryTestSupport
import Foundation
import Testing

/// Python's `zipfile` and openpyxl as judges of an edited workbook: which
/// entries changed (their local header and compressed bytes read raw, and
/// their CRC), and what every sheet holds before and after.
enum XLSXEditPython {
    static let script = #"""
        import json, struct, sys, zipfile
        import openpyxl

        def raw(path):
            entries = {}
            with zipfile.ZipFile(path) as archive, open(path, "rb") as file:
                for info in archive.infolist():
                    file.seek(info.header_offset)
                    header = file.read(30)
                    name_length, extra_length = struct.unpack("<HH", header[26:30])
                    file.seek(info.header_offset)
                    local = file.read(30 + name_length + extra_length + info.compress_size)
                    entries[info.filename] = (local.hex(), info.CRC, info.compress_size)
                described = [i.filename for i in archive.infolist() if i.flag_bits & 8]
                return archive.namelist(), entries, archive.testzip(), described

        def sheets(path):
            book = openpyxl.load_workbook(path)
            return {
                sheet.title: {
                    "rows": [[None if v is None else repr(v) for v in row] for row in sheet.iter_rows(values_only=True)],
                    "merged": sorted(str(r) for r in sheet.merged_cells.ranges),
                    "dimension": sheet.dimensions,
                    "formats": [[cell.number_format + (" bold" if cell.font.b else "") for cell in row] for row in sheet.iter_rows()],
                }
                for sheet in book.worksheets
            }

        before, after = sys.argv[1], sys.argv[2]
        names_before, raw_before, _, _ = raw(before)
        names_after, raw_after, testzip, described = raw(after)
        json.dump({
            "sameNames": names_before == names_after,
            "changed": [n for n in names_before if raw_before[n] != raw_after.get(n)],
            "testzip": testzip,
            "described": described,
            "before": sheets(before),
            "after": sheets(after),
        }, sys.stdout)
        """#

    struct Sheet: Decodable, Equatable {
        var rows: [[String?]]
        var merged: [String]
        var dimension: String
        /// Each cell's number format, and ` bold` when its font is.
        var formats: [[String]]
    }

    struct Report: Decodable {
        var sameNames: Bool
        /// The entries whose local header, compressed bytes or CRC differ.
        var changed: [String]
        var testzip: String?
        /// The entries of the edited workbook that have a data descriptor.
        var described: [String]
        var before: [String: Sheet]
        var after: [String: Sheet]
    }

    static func compare(_ before: String, _ after: String) throws -> Report {
        let result = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, before, after])
        guard result.status == 0 else { throw ScriptFailure(description: result.err) }
        return try JSONDecoder().decode(Report.self, from: Data(result.out.utf8))
    }
}
