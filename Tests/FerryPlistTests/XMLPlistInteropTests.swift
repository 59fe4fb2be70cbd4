import FerryKit
import FerryPlist
import FerryTestSupport
import Foundation
import Testing

/// Other implementations read what Ferry writes, and Ferry reads what they
/// write: Python's `plistlib` and Foundation's `PropertyListSerialization`.
@Suite struct XMLPlistInteropTests {
    // MARK: - Python

    /// Describes a plist as one line per value, `path type value`, with
    /// strings and keys in hex so that no quoting is needed, reals as their
    /// bit pattern and dates as Unix seconds.
    static let describe = """
        import calendar, datetime, plistlib, struct, sys
        def walk(value, path, out):
            if isinstance(value, bool): out.append(f"{path} bool {value}")
            elif isinstance(value, int): out.append(f"{path} int {value}")
            elif isinstance(value, float): out.append(f"{path} real {struct.unpack('<Q', struct.pack('<d', value))[0]}")
            elif isinstance(value, str): out.append(f"{path} str {value.encode('utf-8').hex()}")
            elif isinstance(value, bytes): out.append(f"{path} data {value.hex()}")
            elif isinstance(value, datetime.datetime): out.append(f"{path} date {calendar.timegm(value.utctimetuple())}")
            elif isinstance(value, list):
                out.append(f"{path} array {len(value)}")
                for index, element in enumerate(value): walk(element, f"{path}/{index}", out)
            elif isinstance(value, dict):
                out.append(f"{path} dict {len(value)}")
                for key, element in value.items(): walk(element, f"{path}/{key.encode('utf-8').hex()}", out)
            else: raise TypeError(type(value))
        def describe(data):
            out = []
            walk(plistlib.loads(data), "", out)
            return "\\n".join(out)

        """

    /// The same description of records, as a root array of dictionaries.
    static func describe(_ records: [Record]) -> String {
        var lines: [String] = []
        func walk(_ value: Value, _ path: String) {
            switch value {
            case .null: break
            case .bool(let flag): lines.append("\(path) bool \(flag ? "True" : "False")")
            case .integer(let number): lines.append("\(path) int \(number)")
            case .double(let number): lines.append("\(path) real \(number.bitPattern)")
            case .number(let number):
                if let big = number.unsignedInteger { lines.append("\(path) int \(big)") } else { walk(number.value, path) }
            case .string(let text): lines.append("\(path) str \(hex(Array(text.utf8)))")
            case .bytes(let bytes): lines.append("\(path) data \(hex(bytes))")
            case .date(let date): lines.append("\(path) date \(Int64(date.timeIntervalSince1970.rounded(.down)))")
            case .array(let elements):
                lines.append("\(path) array \(elements.count)")
                for (index, element) in elements.enumerated() { walk(element, "\(path)/\(index)") }
            case .object(let object):
                let pairs = zip(object.keys, object.values).filter { $0.1 != .null }
                lines.append("\(path) dict \(pairs.count)")
                for (key, element) in pairs { walk(element, "\(path)/\(hex(Array(key.utf8)))") }
            }
        }
        walk(.array(records.map { .object(OrderedObject($0.pairs)) }), "")
        return lines.joined(separator: "\n")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    static let python: URL? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// Runs `script` with `python3` and returns its standard output.
    static func runPython(_ script: String, _ arguments: [String]) throws -> String {
        let python = try #require(Self.python)
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try Subprocess.launch(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let failure = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 failed: \(String(decoding: failure, as: UTF8.self))")
        return String(decoding: data, as: UTF8.self)
    }

    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ferry-xmlplist-\(UUID().uuidString)-\(name)")
    }

    /// Records Python can represent: plistlib refuses control characters and
    /// turns CR into LF, as XML readers do.
    static let pythonSafeRecords: [Record] = XMLPlistSamples.records.map { record in
        var record = record
        if case .string(let text)? = record["name"] {
            record.set("name", to: .string(text.replacingOccurrences(of: "\r\n", with: "\n")))
        }
        return record
    }

    @Test(.enabled(if: python != nil, "python3 is not installed"))
    func plistlibReadsWhatFerryWrites() throws {
        let file = Self.temporaryFile("ferry.plist")
        defer { try? FileManager.default.removeItem(at: file) }
        let records = Self.pythonSafeRecords + [Record([("kept", .integer(1)), ("dropped", .null)])]
        try Data(try XMLPlistTest.write(records)).write(to: file)
        let script = Self.describe + "print(describe(open(sys.argv[1], 'rb').read()))"
        let described = try Self.runPython(script, [file.path]).trimmingCharacters(in: .newlines)
        #expect(described == Self.describe(records))
    }

    @Test(.enabled(if: python != nil, "python3 is not installed"))
    func ferryReadsWhatPlistlibWrites() throws {
        let file = Self.temporaryFile("python.plist")
        defer { try? FileManager.default.removeItem(at: file) }
        let script =
            Self.describe + """
                records = []
                for index in range(30):
                    records.append({
                        "name": f"Book {index} & <co> café 😀 \\"quoted\\" 'single'",
                        "isbn": "978-0-00-000000-" + str(index % 10),
                        "price": 19.99 + index, "tenth": 0.1, "huge": 1e300, "whole": 3.0,
                        "count": 2**63 - 1 - index, "min": -2**63 + index,
                        "inStock": index % 2 == 0,
                        "published": datetime.datetime(2017, 10, 7, 12, 30, index % 60),
                        "cover": bytes(range(index * 5 % 256)) * 2,
                        "authors": ["A. Writer", {"role": "editor", "id": index}, [], {}],
                        "empty": "",
                    })
                data = plistlib.dumps(records, fmt=plistlib.FMT_XML)
                open(sys.argv[1], "wb").write(data)
                print(describe(data))
                """
        let described = try Self.runPython(script, [file.path]).trimmingCharacters(in: .newlines)
        let records = try XMLPlistTest.records(try FileInput(path: file.path))
        #expect(records.count == 30)
        #expect(Self.describe(records) == described)
        // Streaming reads the same file in tiny pieces to the same records.
        let bytes = Array(try Data(contentsOf: file))
        #expect(try XMLPlistTest.records(xmlTrickleInput(bytes, seed: 9)) == records)
    }

    // MARK: - Foundation

    @Test func propertyListSerializationReadsWhatFerryWrites() throws {
        let bytes = try XMLPlistTest.write(XMLPlistSamples.records)
        var format = PropertyListSerialization.PropertyListFormat.binary
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        #expect(format == .xml)
        let dictionaries = try #require(object as? [[String: Any]])
        #expect(dictionaries.count == XMLPlistSamples.records.count)
        for (dictionary, record) in zip(dictionaries, XMLPlistSamples.records) {
            #expect(Set(dictionary.keys) == Set(record.fields.names.filter { record[$0] != .null }))
            for (name, value) in record.pairs {
                let found = dictionary[name]
                switch value {
                case .string(let text): #expect(found as? String == text, "\(name)")
                case .integer(let number): #expect((found as? NSNumber)?.int64Value == number, "\(name)")
                case .double(let number): #expect((found as? NSNumber)?.doubleValue == number, "\(name)")
                case .number(let number):
                    guard case .double(let double) = number.value else { break }
                    #expect((found as? NSNumber)?.doubleValue == double, "\(name)")
                case .bool(let flag): #expect(found as? Bool == flag, "\(name)")
                case .date(let date): #expect(found as? Date == date, "\(name)")
                case .bytes(let bytes): #expect((found as? Data).map { Array($0) } == bytes, "\(name)")
                case .array(let elements): #expect((found as? [Any])?.count == elements.count, "\(name)")
                case .object(let object): #expect((found as? [String: Any])?.count == object.count, "\(name)")
                case .null: #expect(found == nil)
                }
            }
        }
    }

    @Test func ferryReadsWhatPropertyListSerializationWrites() throws {
        let date = XMLPlistSamples.date
        var root: [[String: Any]] = []
        for index in 0..<5 {
            var dictionary: [String: Any] = [:]
            dictionary["name"] = "Widget \(index) & <more> ü 😀"
            dictionary["count"] = Int64.max - Int64(index)
            dictionary["price"] = 19.99 + Double(index)
            dictionary["onSale"] = index % 2 == 0
            dictionary["added"] = date.addingTimeInterval(Double(index))
            dictionary["thumbnail"] = Data((0..<(index * 40)).map { UInt8(truncatingIfNeeded: $0) })
            dictionary["tags"] = ["a", "b", index] as [Any]
            dictionary["dimensions"] = ["w": 1.5, "h": 2] as [String: Any]
            root.append(dictionary)
        }
        let data = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
        let records = try XMLPlistTest.records(MemoryInput(Array(data)))
        #expect(records.count == 5)
        for (index, record) in records.enumerated() {
            #expect(record["name"] == .string("Widget \(index) & <more> ü 😀"))
            #expect(record["count"] == .integer(Int64.max - Int64(index)))
            #expect(record["price"] == .double(19.99 + Double(index)))
            #expect(record["onSale"] == .bool(index % 2 == 0))
            #expect(record["added"] == .date(date.addingTimeInterval(Double(index))))
            #expect(record["thumbnail"] == .bytes((0..<(index * 40)).map { UInt8(truncatingIfNeeded: $0) }))
            #expect(record["tags"] == .array([.string("a"), .string("b"), .integer(Int64(index))]))
            guard case .object(let dimensions)? = record["dimensions"] else {
                Issue.record("dimensions is not an object")
                continue
            }
            #expect(dimensions["w"] == .double(1.5))
            #expect(dimensions["h"] == .integer(2) || dimensions["h"] == .double(2))
        }
        // And the whole document parses to the same shape.
        guard case .array(let elements) = try XMLPlistParser.parse(Array(data)) else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 5)
    }
}
