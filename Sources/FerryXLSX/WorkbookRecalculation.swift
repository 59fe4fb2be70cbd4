import FerryCore

// MARK: - Design
//
// A formula cell keeps the value it had when the workbook was last
// calculated (`<c r="D7"><f>SUM(B2:B6)</f><v>587.99</v></c>`). When an
// edit changes a price that such a formula reads, the workbook must say
// that its cached results are stale, or a spreadsheet shows the old total
// until someone recalculates by hand. `fullCalcOnLoad` on the workbook's
// `<calcPr>` (ECMA-376 Part 1, 18.2.2) says so: an application "shall
// perform a full calculation when the workbook is opened". openpyxl and
// XlsxWriter set it on every workbook they save. (LibreOffice 7.4 with its
// default settings was seen not to honour it: see Formats/xlsx.md.)
//
// The editor sets it only when the workbook has a formula (the edited
// sheet, another sheet, or a calculation chain), so a workbook without
// formulas keeps its workbook part byte for byte:
//
//     <calcPr calcId="191029"/>                 →  <calcPr fullCalcOnLoad="1" calcId="191029"/>
//     <calcPr fullCalcOnLoad="0"/>              →  <calcPr fullCalcOnLoad="1"/>
//     … <definedNames>…</definedNames> <extLst> →  … </definedNames><calcPr fullCalcOnLoad="1"/><extLst>
//
// A new `<calcPr>` goes where CT_Workbook's sequence has it: after
// `definedNames` and the elements before it, before `oleSize` and the
// elements after it, with the root element's namespace prefix.

/// Asks a workbook to recalculate its formulas when it is next opened
/// (see the design note).
enum WorkbookRecalculation {
    /// The children of `<workbook>` that come after `<calcPr>` in CT_Workbook.
    private static let laterSiblings: [StaticString] = [
        "oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr", "smartTagTypes", "webPublishing",
        "fileRecoveryPr", "webPublishObjects", "extLst",
    ]

    /// The workbook part `xml` with `fullCalcOnLoad="1"` on its `<calcPr>`;
    /// nil when it has it already.
    /// - Throws: `xlsx.malformedXML`.
    static func requested(in xml: [UInt8], part: String, file: String, limits: ReadLimits) throws(FerryError) -> [UInt8]? {
        let scanner = XMLPullScanner(MemoryInput(xml, name: part), part: part, file: file, maxTokenBytes: limits.maxRecordBytes)
        var depth = 0
        var prefix: [UInt8] = []
        while true {
            switch try scanner.next() {
            case .endOfDocument:
                throw scanner.malformed(at: scanner.tokenStart)
            case .start:
                let name = scanner.offsets(of: scanner.nameStart..<scanner.nameEnd)
                if depth == 0 { prefix = Array(xml[(scanner.tokenOffset + 1)..<name.lowerBound]) }
                if depth == 1 {
                    if scanner.nameIs("calcPr") {
                        guard let value = scanner.attribute("fullCalcOnLoad") else {
                            return spliced(xml, at: name.upperBound..<name.upperBound, with: #" fullCalcOnLoad="1""#)
                        }
                        if scanner.equals(value, "1") || scanner.equals(value, "true") { return nil }
                        return spliced(xml, at: scanner.offsets(of: value), with: "1")
                    }
                    if laterSiblings.contains(where: scanner.nameIs) {
                        return spliced(xml, at: scanner.tokenOffset..<scanner.tokenOffset, with: element(prefix))
                    }
                }
                // An empty element's end comes as a token of its own.
                depth += 1
            case .end:
                depth -= 1
                if depth == 0 {
                    return spliced(xml, at: scanner.tokenOffset..<scanner.tokenOffset, with: element(prefix))
                }
            case .text:
                break
            }
        }
    }

    /// Whether the worksheet part `xml` has a formula (`<f>` in a cell).
    /// - Throws: `xlsx.malformedXML`.
    static func hasFormula(_ input: any ByteInput, part: String, file: String, limits: ReadLimits) throws(FerryError) -> Bool {
        let scanner = XMLPullScanner(input, part: part, file: file, maxTokenBytes: limits.maxRecordBytes)
        var inCell = false
        while true {
            switch try scanner.next() {
            case .endOfDocument: return false
            case .start:
                if inCell && scanner.nameIs("f") { return true }
                if scanner.nameIs("c") { inCell = true }
            case .end:
                if scanner.nameIs("c") { inCell = false }
            case .text:
                break
            }
        }
    }

    private static func element(_ prefix: [UInt8]) -> String {
        "<" + String(decoding: prefix, as: UTF8.self) + #"calcPr fullCalcOnLoad="1"/>"#
    }

    private static func spliced(_ xml: [UInt8], at range: Range<Int>, with text: String) -> [UInt8] {
        var result = xml
        result.replaceSubrange(range, with: Array(text.utf8))
        return result
    }
}
