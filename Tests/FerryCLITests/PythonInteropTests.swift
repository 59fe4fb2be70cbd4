import Foundation
import Testing

/// Python's `json` module as an independent reader and writer of what Ferry
/// converts: random products and books go JSON → JSON Lines → JSON through
/// `ferry`, and Python must find the same data, types and key order.
@Suite struct PythonInteropTests {
    /// Compares two JSON files strictly (types, key order, float bits), checks
    /// a JSON Lines file against the first, or rewrites a file with `json.dump`.
    static let script = #"""
        import json, sys

        def load(path):
            with open(path, encoding="utf-8") as file:
                return json.load(file)

        def same(a, b, where):
            if type(a) is not type(b):
                return f"{where}: {type(a).__name__} {a!r:.80} != {type(b).__name__} {b!r:.80}"
            if isinstance(a, dict):
                if list(a) != list(b):
                    return f"{where}: keys {list(a)!r:.200} != {list(b)!r:.200}"
                for key in a:
                    problem = same(a[key], b[key], f"{where}.{key!r}")
                    if problem: return problem
            elif isinstance(a, list):
                if len(a) != len(b):
                    return f"{where}: {len(a)} elements != {len(b)}"
                for index, (x, y) in enumerate(zip(a, b)):
                    problem = same(x, y, f"{where}[{index}]")
                    if problem: return problem
            elif isinstance(a, float):
                if a.hex() != b.hex():
                    return f"{where}: {a!r} != {b!r}"
            elif a != b:
                return f"{where}: {a!r:.80} != {b!r:.80}"
            return None

        command = sys.argv[1]
        if command == "compare":
            problem = same(load(sys.argv[2]), load(sys.argv[3]), "$")
        elif command == "lines":
            expected = load(sys.argv[2])
            with open(sys.argv[3], encoding="utf-8", newline="") as file:
                text = file.read()
            lines = text.split("\n")
            problem = None if lines[-1] == "" else "no newline at the end"
            problem = problem or same(expected, [json.loads(line) for line in lines[:-1]], "$")
        elif command == "dump":
            with open(sys.argv[3], "w", encoding="utf-8") as file:
                json.dump(load(sys.argv[2]), file, ensure_ascii=sys.argv[4] == "ascii", indent=int(sys.argv[5]) or None)
            problem = None
        if problem:
            print(problem)
            sys.exit(1)
        print(f"OK {len(load(sys.argv[2]))}")
        """#

    static func python(_ arguments: [String]) throws -> ProcessResult {
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, timeout: 60)
        try #require(!result.timedOut, "python3 hung")
        return result
    }

    static func convert(_ arguments: [String]) throws {
        let result = try Ferry.run(["convert", "--quiet"] + arguments, timeout: 60)
        try #require(result.status == 0, "ferry convert \(arguments.joined(separator: " ")) failed: \(result.err)")
        // The generated data repeats a name in an object now and then: said
        // once per name, nothing else.
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == result.diagnostics.count, "\(result.err)")
        #expect(result.diagnostics.allSatisfy { $0.code == "json.duplicateName" && $0.severity == "warning" }, "\(result.err)")
    }

    @Test func pythonIsAvailable() throws {
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import json"])
        #expect(result.status == 0, "python3 with json is needed on PATH: \(result.err)")
    }

    @Test(arguments: [("product", UInt64(0x5EED_0001)), ("book", UInt64(0x5EED_0002))])
    func jsonToLinesToJSON(kind: String, seed: UInt64) throws {
        let folder = try ScratchFolder()
        var generator = DatasetGenerator(seed: seed)
        let input = try folder.write("in.json", generator.document(kind: kind, count: 1_000))
        let checked = try Self.python(["compare", input, input])
        try #require(checked.status == 0, "the generated input is not JSON to Python: \(checked.out) \(checked.err)")

        // Products go through base64 and back on the way, as inline photos.
        let embed = kind == "product" ? ["--embed-photos"] : []
        try Self.convert([input, folder.path("mid.jsonl"), "--kind", kind] + embed)
        try Self.convert([folder.path("mid.jsonl"), folder.path("out.json"), "--kind", kind])

        let lines = try Self.python(["lines", input, folder.path("mid.jsonl")])
        #expect(lines.status == 0, "JSON Lines differ: \(lines.out) \(lines.err)")
        let same = try Self.python(["compare", input, folder.path("out.json")])
        #expect(same.status == 0, "output differs: \(same.out) \(same.err)")
        #expect(same.out == "OK 1000\n")
    }

    @Test(arguments: [("product", "utf8", 0), ("book", "utf8", 2), ("product", "ascii", 4)])
    func pythonWrittenJSONReadsBack(kind: String, encoding: String, indent: Int) throws {
        let folder = try ScratchFolder()
        var generator = DatasetGenerator(seed: 0xF00D + UInt64(indent))
        let input = try folder.write("in.json", generator.document(kind: kind, count: 500))
        let dumped = try Self.python(["dump", input, folder.path("python.json"), encoding, String(indent)])
        try #require(dumped.status == 0, "json.dump failed: \(dumped.out) \(dumped.err)")

        try Self.convert([folder.path("python.json"), folder.path("back.jsonl")])
        try Self.convert([folder.path("back.jsonl"), folder.path("back.json"), "--compact"])
        let same = try Self.python(["compare", folder.path("python.json"), folder.path("back.json")])
        #expect(same.status == 0, "output differs: \(same.out) \(same.err)")
        let lines = try Self.python(["lines", folder.path("python.json"), folder.path("back.jsonl")])
        #expect(lines.status == 0, "JSON Lines differ: \(lines.out) \(lines.err)")
    }

    @Test func generatorIsDeterministic() {
        var first = DatasetGenerator(seed: 42)
        var second = DatasetGenerator(seed: 42)
        #expect(first.document(kind: "book", count: 20) == second.document(kind: "book", count: 20))
    }
}
