import FerryCore

/// One sheet of a workbook, as `xl/workbook.xml` lists it.
struct WorkbookSheet: Sendable, Hashable {
    var name: String
    /// The sheet's part in the zip (`xl/worksheets/sheet1.xml`).
    var part: String
    /// `hidden` or `veryHidden`; nil when visible.
    var state: String?
}

/// What the reader needs of a workbook besides a sheet: its sheets, the
/// date system, and where the shared strings and styles are.
struct WorkbookParts {
    /// The workbook part itself (`xl/workbook.xml`).
    var part = "xl/workbook.xml"
    var sheets: [WorkbookSheet] = []
    /// `workbookPr date1904`: serial 0 is 1904-01-01 instead of 1899-12-30.
    var uses1904 = false
    var sharedStringsPart: String?
    var stylesPart: String?

    static let officeDocumentType = "/officeDocument"

    /// Reads the package's relationships and the workbook part.
    /// - Throws: `xlsx.missingPart`, XML errors, zip errors.
    init(_ archive: ZipArchive, limits: ReadLimits) throws(FerryError) {
        let file = archive.source.name
        // The workbook: the package's officeDocument relationship, else the usual place.
        var workbook = "xl/workbook.xml"
        if let rels = archive.entry("_rels/.rels") {
            for relation in try Self.relationships(archive, rels, base: "", limits: limits)
            where relation.type.hasSuffix(Self.officeDocumentType) {
                workbook = relation.target
                break
            }
        }
        guard let workbookEntry = archive.entry(workbook) else {
            throw .xlsxMissingPart(workbook, at: SourceLocation(file: file))
        }
        part = workbook
        let folder = workbook.split(separator: "/").dropLast().joined(separator: "/")
        let relsName = (folder.isEmpty ? "" : folder + "/") + "_rels/" + (workbook.split(separator: "/").last.map(String.init) ?? "") + ".rels"
        var targets: [String: String] = [:]
        if let rels = archive.entry(relsName) {
            for relation in try Self.relationships(archive, rels, base: folder, limits: limits) {
                targets[relation.id] = relation.target
                if relation.type.hasSuffix("/sharedStrings") { sharedStringsPart = relation.target }
                if relation.type.hasSuffix("/styles") { stylesPart = relation.target }
            }
        }
        let scanner = XMLPullScanner(
            try ZipEntryInput(archive, entry: workbookEntry, limits: limits), part: workbook, file: file,
            maxTokenBytes: limits.maxRecordBytes)
        var text: [UInt8] = []
        while true {
            let token = try scanner.next()
            if token == .endOfDocument { break }
            guard token == .start else { continue }
            if scanner.nameIs("workbookPr"), let value = scanner.attribute("date1904") {
                uses1904 = scanner.equals(value, "1") || scanner.equals(value, "true")
            } else if scanner.nameIs("sheet") {
                let name = try Self.value(scanner, "name", into: &text) ?? ""
                let id = try Self.value(scanner, "id", into: &text) ?? ""
                let state = try Self.value(scanner, "state", into: &text)
                let part = targets[id] ?? ""
                sheets.append(WorkbookSheet(name: name, part: part, state: state == "visible" ? nil : state))
            }
        }
    }

    /// An attribute's value with its entities undone.
    static func value(_ scanner: XMLPullScanner, _ name: StaticString, into text: inout [UInt8]) throws(FerryError) -> String? {
        guard let range = scanner.attribute(name) else { return nil }
        text.removeAll(keepingCapacity: true)
        try scanner.appendText(range, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    struct Relationship {
        var id: String
        var type: String
        var target: String
    }

    /// The relationships of a `.rels` part, targets resolved against `base`.
    static func relationships(
        _ archive: ZipArchive, _ entry: ZipEntry, base: String, limits: ReadLimits
    ) throws(FerryError) -> [Relationship] {
        let scanner = XMLPullScanner(
            try ZipEntryInput(archive, entry: entry, limits: limits), part: entry.name, file: archive.source.name,
            maxTokenBytes: limits.maxRecordBytes)
        var result: [Relationship] = []
        var text: [UInt8] = []
        while true {
            let token = try scanner.next()
            if token == .endOfDocument { break }
            guard token == .start, scanner.nameIs("Relationship") else { continue }
            if let mode = try value(scanner, "TargetMode", into: &text), mode == "External" { continue }
            result.append(
                Relationship(
                    id: try value(scanner, "Id", into: &text) ?? "",
                    type: try value(scanner, "Type", into: &text) ?? "",
                    target: resolve(try value(scanner, "Target", into: &text) ?? "", against: base)))
        }
        return result
    }

    /// A relationship target as a part name: `/xl/x.xml` is absolute,
    /// `worksheets/sheet1.xml` relative to the folder, with `..` undone.
    static func resolve(_ target: String, against base: String) -> String {
        var parts: [Substring] = target.hasPrefix("/") ? [] : base.split(separator: "/")
        for piece in target.split(separator: "/") {
            if piece == ".." {
                _ = parts.popLast()
            } else if piece != "." {
                parts.append(piece)
            }
        }
        return parts.joined(separator: "/")
    }
}
