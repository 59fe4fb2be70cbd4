import Foundation
import FerryTestSupport
import Testing

/// openpyxl, python-calamine and `zipfile` as independent readers of the
/// workbooks Ferry writes: Python prints what each found as JSON, with the
/// type of every cell, so that tests compare types as well as values.
enum XLSXWriterPython {
    static let script = #"""
        import datetime, json, sys, zipfile
        import openpyxl
        from python_calamine import CalamineWorkbook

        def describe(value):
            if value is None: return None
            if isinstance(value, bool): return ["bool", value]
            if isinstance(value, int): return ["int", str(value)]
            if isinstance(value, float): return ["float", repr(value)]
            if isinstance(value, str): return ["string", value]
            if isinstance(value, datetime.datetime): return ["datetime", value.isoformat()]
            if isinstance(value, datetime.date): return ["date", value.isoformat()]
            raise TypeError(type(value).__name__)

        path, mode = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(path) as archive:
            report = {"testzip": archive.testzip(), "entries": archive.namelist()}
        if mode == "full":
            book = openpyxl.load_workbook(path)
            sheet = book.worksheets[0]
            report["sheets"] = book.sheetnames
            report["freeze"] = sheet.freeze_panes
            # Rows first: sheet[1] makes the cells of row 1 when there are none.
            report["rows"] = [[describe(v) for v in row] for row in sheet.iter_rows(values_only=True)]
            report["headerBold"] = [cell.font.b for cell in sheet[1]]
            report["formats"] = [[cell.number_format for cell in row] for row in sheet.iter_rows(min_row=2)]
            report["widths"] = {key: dim.width for key, dim in sheet.column_dimensions.items()}
        else:
            book = openpyxl.load_workbook(path, read_only=True)
            sheet = book.worksheets[0]
            report["sheets"] = book.sheetnames
            rows = [[describe(v) for v in row] for row in sheet.iter_rows(values_only=True)]
            report["count"] = len(rows)
            report["rows"] = rows[:3] + rows[-2:]
        calamine = CalamineWorkbook.from_path(path)
        report["calamineSheets"] = calamine.sheet_names
        rows = calamine.get_sheet_by_index(0).to_python(skip_empty_area=False)
        report["calamineCount"] = len(rows)
        report["calamine"] = [[describe(v) for v in row] for row in (rows if mode == "full" else rows[:3] + rows[-2:])]
        json.dump(report, sys.stdout)
        """#

    /// What Python found in a workbook.
    struct Report: Decodable {
        var testzip: String?
        var entries: [String]
        var sheets: [String]
        var freeze: String?
        var headerBold: [Bool?]?
        var formats: [[String]]?
        var widths: [String: Double]?
        var rows: [[Cell?]]
        var count: Int?
        var calamineSheets: [String]
        var calamineCount: Int
        var calamine: [[Cell?]]
    }

    /// A cell as `[type, value]`.
    struct Cell: Decodable, Equatable, CustomStringConvertible {
        var type: String
        var text: String

        init(_ type: String, _ text: String) {
            self.type = type
            self.text = text
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            type = try container.decode(String.self)
            if type == "bool" {
                text = try container.decode(Bool.self) ? "true" : "false"
            } else {
                text = try container.decode(String.self)
            }
        }

        var description: String { "\(type):\(text)" }
    }

    /// Reads `path` with openpyxl (every detail with `full`, else in read-only
    /// mode, its first and last rows), python-calamine and `zipfile`.
    static func read(_ path: String, full: Bool = true) throws -> Report {
        let python = try PythonEnvironment.python()
        let result = try Subprocess.run(python, ["-c", script, path, full ? "full" : "summary"], timeout: 300)
        try #require(result.status == 0, "python failed: \(result.err)")
        return try JSONDecoder().decode(Report.self, from: Data(result.stdout))
    }
}
