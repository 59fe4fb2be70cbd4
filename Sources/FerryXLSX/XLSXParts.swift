/// The parts of a written workbook around its one sheet: the package's
/// content types and relationships, the workbook, and the styles the sheet's
/// cells name by index (`XLSXParts.Style`).
enum XLSXParts {
    /// The sheet's part name, as the relationships and content types give it.
    static let sheetPath = "xl/worksheets/sheet1.xml"

    /// The cell formats of `styles.xml`, by their index in `cellXfs`.
    enum Style: Int {
        case plain = 0
        /// The header row: bold.
        case header = 1
        /// A timestamp at midnight UTC: `yyyy-mm-dd`.
        case date = 2
        /// Any other timestamp: `yyyy-mm-dd hh:mm:ss`.
        case dateTime = 3
    }

    private static let declaration = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
    private static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    private static let relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

    /// `[Content_Types].xml`.
    static let contentTypes = Array(
        (declaration
            + #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#
            + #"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#
            + #"<Default Extension="xml" ContentType="application/xml"/>"#
            + #"<Override PartName="/xl/workbook.xml" "#
            + #"ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>"#
            + #"<Override PartName="/\#(sheetPath)" "#
            + #"ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#
            + #"<Override PartName="/xl/styles.xml" "#
            + #"ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#
            + "</Types>").utf8)

    /// `_rels/.rels`: the package's main part is the workbook.
    static let packageRelationships = Array(
        (declaration
            + #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#
            + #"<Relationship Id="rId1" Type="\#(relationships)/officeDocument" Target="xl/workbook.xml"/>"#
            + "</Relationships>").utf8)

    /// `xl/_rels/workbook.xml.rels`: the sheet and the styles.
    static let workbookRelationships = Array(
        (declaration
            + #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#
            + #"<Relationship Id="rId1" Type="\#(relationships)/worksheet" Target="worksheets/sheet1.xml"/>"#
            + #"<Relationship Id="rId2" Type="\#(relationships)/styles" Target="styles.xml"/>"#
            + "</Relationships>").utf8)

    /// `xl/workbook.xml` with one sheet, named `sheetName` (valid: see
    /// `XLSXSheetName`), in the 1900 date system.
    static func workbook(sheetName: String) -> [UInt8] {
        var name: [UInt8] = []
        for byte in sheetName.utf8 {
            switch byte {
            case UInt8(ascii: "&"): name += Array("&amp;".utf8)
            case UInt8(ascii: "<"): name += Array("&lt;".utf8)
            case UInt8(ascii: "\""): name += Array("&quot;".utf8)
            default: name.append(byte)
            }
        }
        return Array(
            (declaration + #"<workbook xmlns="\#(main)" xmlns:r="\#(relationships)">"#
                + #"<bookViews><workbookView activeTab="0"/></bookViews><sheets><sheet name=""#).utf8)
            + name + Array(#"" sheetId="1" r:id="rId1"/></sheets></workbook>"#.utf8)
    }

    /// `xl/styles.xml`: Calibri 11, the same bold, and the two date formats.
    static let styles = Array(
        (declaration + #"<styleSheet xmlns="\#(main)">"#
            + #"<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>"#
            + #"<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>"#
            + #"<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>"#
            + #"<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>"#
            + #"<fills count="2"><fill><patternFill patternType="none"/></fill>"#
            + #"<fill><patternFill patternType="gray125"/></fill></fills>"#
            + #"<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"#
            + #"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#
            + #"<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#
            + #"<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>"#
            + #"<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#
            + #"<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>"#
            + #"<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#
            + "</styleSheet>").utf8)

    // MARK: - The sheet around its rows

    /// The sheet's start, up to its rows: the used range, the header row
    /// frozen, and the column widths.
    /// - Parameters:
    ///   - lastCell: the used range's last cell (`H1001`), or nil when empty.
    ///   - widths: each column's width, in characters.
    static func sheetHead(lastCell: [UInt8]?, widths: [Int]) -> [UInt8] {
        var head = Array(
            (declaration + #"<worksheet xmlns="\#(main)" xmlns:r="\#(relationships)"><dimension ref="A1"#).utf8)
        if let lastCell {
            head.append(UInt8(ascii: ":"))
            head += lastCell
        }
        head += Array(
            (#""/><sheetViews><sheetView tabSelected="1" workbookViewId="0">"#
                + #"<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>"#
                + #"<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>"#
                + #"<sheetFormatPr defaultRowHeight="15"/>"#).utf8)
        if !widths.isEmpty {
            head += Array("<cols>".utf8)
            for (index, width) in widths.enumerated() {
                head += Array(#"<col min="\#(index + 1)" max="\#(index + 1)" width="\#(width)" customWidth="1"/>"#.utf8)
            }
            head += Array("</cols>".utf8)
        }
        head += Array("<sheetData>".utf8)
        return head
    }

    /// The sheet's end, after its rows.
    static let sheetTail = Array(
        (#"</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>"#
            + "</worksheet>").utf8)
}
