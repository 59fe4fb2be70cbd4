import FerryCore

/// Excel workbooks (`.xlsx`, ECMA-376 SpreadsheetML): a zip of XML parts.
/// One sheet is one table of records, its first row the header, as CSV has it.
public struct XLSXCodec: Codec {
    /// The sheet to read (by name, or by its 1-based place as digits) and
    /// the name of the sheet to write; nil for the first sheet, and a
    /// written sheet named after the kind. `--sheet` overrides it.
    public var sheet: String?

    public init(sheet: String? = nil) { self.sheet = sheet }

    /// This codec with `--sheet` as its sheet, when given.
    public func configured(by options: OptionValues) throws(FerryError) -> any Codec {
        XLSXCodec(sheet: options[Self.sheetOption] ?? sheet)
    }

    public let id = "xlsx"
    public let extensions = ["xlsx"]
    public let capabilities: CodecCapabilities = [.read, .write, .writesBinary, .writesRaw]
    public var options: [CodecOption] {
        [CodecOption(name: XLSXCodec.sheetOption, helpKey: .optionXlsxSheet, valueName: "name|n", applies: .readWrite)]
    }

    /// `--sheet NAME|N`: the sheet to read (by name, or by its 1-based place),
    /// or the name of the sheet to write.
    public static let sheetOption = "sheet"

    /// A writer of one sheet, named by `--sheet`, else after the kind.
    /// - Throws: `xlsx.sheetNameInvalid` for a name Excel refuses.
    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        let name = context.options[XLSXCodec.sheetOption] ?? sheet ?? XLSXWriter.defaultSheetName(for: context.kind)
        guard XLSXWriter.isValidSheetName(name) else { throw .xlsxSheetNameInvalid(name) }
        return try XLSXWriter(output, sheetName: name, losses: context.losses)
    }

    /// A zip's local file header magic makes a workbook possible; a
    /// `[Content_Types].xml` entry among the first names makes it likely.
    public func sniff(_ prefix: [UInt8]) -> SniffResult {
        guard prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return .no }
        let marker = Array("[Content_Types].xml".utf8)
        guard prefix.count >= marker.count else { return .possible }
        for start in 0...(prefix.count - marker.count)
        where prefix[start..<(start + marker.count)].elementsEqual(marker) {
            return .likely
        }
        return .possible
    }

    /// Reads the sheet `--sheet` names, else the first, as records.
    /// - Throws: `xlsx.*` zip, workbook and XML errors.
    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        try XLSXReader(input, context: context, sheet: sheet)
    }
}
