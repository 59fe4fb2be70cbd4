#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryXLSX
@testable import FerryKit
import FuzzSupport

// Workbooks: the zip decoder (central directory, zip64, local headers,
// stored and deflated parts, CRCs, limits) and the sheet decoder (the pull
// XML scanner, shared strings, styles, cells), with small limits. The
// first byte chooses: 0, the rest is the package as it is; otherwise the
// rest is a sheet's XML, put into a stored package here, so that mutations
// reach the XML without breaking CRCs first (and, for a first byte of 1,
// the rest is also a workbook part for `WorkbookRecalculation`). Whatever
// reads, the editor then edits, adds, removes and writes the package
// again, which is read back.
let codec = XLSXCodec()

/// CRC-32 (ISO 3309) for the stored package; the harness's own, as the
/// fuzz package sees only Ferry's public API.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

func storedZip(_ parts: [(String, [UInt8])]) -> [UInt8] {
    func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) } }
    var out: [UInt8] = []
    var central: [UInt8] = []
    for (name, bytes) in parts {
        let crc = crc32(bytes)
        let fields = le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) + le32(UInt32(bytes.count))
            + le32(UInt32(bytes.count)) + le16(name.utf8.count) + le16(0)
        central += [0x50, 0x4B, 0x01, 0x02] + le16(20) + fields + le16(0) + le16(0) + le16(0) + le32(0)
            + le32(UInt32(out.count)) + Array(name.utf8)
        out += [0x50, 0x4B, 0x03, 0x04] + fields + Array(name.utf8) + bytes
    }
    let start = out.count
    out += central
    out += [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(parts.count) + le16(parts.count)
        + le32(UInt32(central.count)) + le32(UInt32(start)) + le16(0)
    return out
}

let workbook = Array(
    ("<workbook><workbookPr date1904=\"0\"/><sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>").utf8)
let relationships = Array(
    ("<Relationships><Relationship Id=\"rId1\" Type=\"x/worksheet\" Target=\"sheet.xml\"/>"
        + "<Relationship Id=\"rId2\" Type=\"x/sharedStrings\" Target=\"strings.xml\"/>"
        + "<Relationship Id=\"rId3\" Type=\"x/styles\" Target=\"styles.xml\"/></Relationships>").utf8)
let strings = Array("<sst><si><t>name</t></si><si><r><t>Wii</t></r><rPh><t>x</t></rPh></si></sst>".utf8)
let styles = Array(
    ("<styleSheet><numFmts><numFmt numFmtId=\"164\" formatCode=\"yyyy-mm-dd hh:mm\"/></numFmts>"
        + "<cellXfs><xf numFmtId=\"0\"/><xf numFmtId=\"164\"/><xf numFmtId=\"14\"/></cellXfs></styleSheet>").utf8)

let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    guard let first = bytes.first else { return 0 }
    let package =
        first == 0
        ? Array(bytes.dropFirst())
        : storedZip([
            ("xl/workbook.xml", workbook), ("xl/_rels/workbook.xml.rels", relationships),
            ("xl/strings.xml", strings), ("xl/styles.xml", styles), ("xl/sheet.xml", Array(bytes.dropFirst())),
        ])
    var limits = ReadLimits()
    limits.maxEntries = 64
    limits.maxEntryBytes = 1 << 20
    limits.maxRecordBytes = 1 << 16
    limits.maxInputBytes = 1 << 20
    if first == 1 {
        // The rest as a workbook part, for the editor's recalculation flag.
        let xml = Array(bytes.dropFirst())
        _ = try? WorkbookRecalculation.requested(in: xml, part: "xl/workbook.xml", file: "f.xlsx", limits: limits)
        _ = try? WorkbookRecalculation.hasFormula(MemoryInput(xml), part: "s.xml", file: "f.xlsx", limits: limits)
    }
    let context = ReadContext(limits: limits)
    guard let reader = try? codec.makeReader(MemoryInput(package), context: context) else { return 0 }
    var records: [Record] = []
    while let record = try? reader.next() { records.append(record) }
    // The editor, on what was read: its sheet map, the splices and the
    // package written again, then read back.
    guard let last = records.last,
        let editor = try? codec.makeEditor(package, records: records, context: ReadContext(limits: limits))
    else { return 0 }
    var changed = last
    if let field = changed.fields.names.first { changed.set(field, to: .string("x&<y>")) }
    try? editor.replace(at: records.count - 1, with: changed)
    try? editor.append(changed)
    try? editor.remove(at: 0)
    if let edited = try? editor.encoded(), let again = try? codec.makeReader(MemoryInput(edited), context: ReadContext(limits: limits)) {
        while (try? again.next()) != nil {}
    }
    return 0
}
exit(runFuzzer(test))
