import FerryCore
import FerryKit
import FerryTestSupport
import Foundation
import Testing

@testable import FerryXLSX

/// Workbooks that openpyxl and XlsxWriter write,
/// made once per test process (`Scripts/make-workbooks.py`), and what openpyxl reads from them.
enum Workbooks {
    static let script = TestPaths.packageRoot.appendingPathComponent("Scripts/make-workbooks.py").path

    /// The folder holding openpyxl.xlsx, xlsxwriter.xlsx and inline.xlsx.
    static func folder() throws -> ScratchFolder {
        try made.get()
    }

    nonisolated(unsafe) private static let made = Result { () throws -> ScratchFolder in
        let folder = try ScratchFolder()
        let python = try PythonEnvironment.python()
        let result = try Subprocess.run(python, [script, "write", folder.url.path])
        guard result.status == 0 else { throw ScriptFailure(description: result.err) }
        return folder
    }

    /// The rows openpyxl reads from `sheet` of `path`, header first, each
    /// cell as `Cell`.
    static func openpyxlRows(_ path: String, sheet: String) throws -> [[Cell]] {
        let python = try PythonEnvironment.python()
        let result = try Subprocess.run(python, [script, "read", path, sheet])
        guard result.status == 0 else { throw ScriptFailure(description: result.err) }
        return try result.out.split(separator: "\n").map { line in
            let cells = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            return cells.map { Cell(python: $0) }
        }
    }
}

/// A cell as both readers can say it: text, a number (compared as a
/// double), a bool, or nothing.
enum Cell: Equatable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(python: Any) {
        guard let object = python as? [String: Any] else {
            self = .null
            return
        }
        if let text = object["string"] as? String {
            self = .string(text)
        } else if let text = object["number"] as? String {
            self = .number(Double(text) ?? .nan)
        } else if let flag = object["bool"] as? Bool {
            self = .bool(flag)
        } else {
            self = .null
        }
    }

    init(_ value: Value) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .number(let number): self = .number(Double(number.text) ?? .nan)
        case .bool(let flag): self = .bool(flag)
        default: self = .null
        }
    }

    var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .number(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        case .null: "null"
        }
    }
}

/// Ferry's reading of a workbook.
struct FerryReading {
    var header: [String] = []
    var rows: [[Value]] = []
    var warnings: [FerryWarning] = []

    init(_ path: String, sheet: String? = nil, kind: RecordKind? = nil) throws {
        var options: [String: String] = [:]
        if let sheet { options[XLSXCodec.sheetOption] = sheet }
        let context = ReadContext(kind: kind, options: OptionValues(options))
        let reader = try XLSXCodec().makeReader(try FileInput(path: path), context: context)
        while let record = try reader.next() {
            header = record.fields.names
            rows.append(record.values)
        }
        warnings = context.warnings
    }

    init(bytes: [UInt8], name: String = "book.xlsx", limits: ReadLimits = ReadLimits()) throws(FerryError) {
        let context = ReadContext(limits: limits)
        let reader = try XLSXCodec().makeReader(MemoryInput(bytes, name: name), context: context)
        while let record = try reader.next() {
            header = record.fields.names
            rows.append(record.values)
        }
        warnings = context.warnings
    }
}

/// The error `body` throws, if it is a `FerryError`.
func ferryError(_ body: () throws -> Void) -> FerryError? {
    do {
        try body()
        return nil
    } catch let error as FerryError {
        return error
    } catch {
        return nil
    }
}

/// What the fixture script printed when it failed.
struct ScriptFailure: Error, CustomStringConvertible {
    let description: String
}
