import Foundation
import Testing

/// Python's `json`, `plistlib` and `csv` as independent readers and writers.
///
/// Python reads a file and prints what it found as `Typed` JSON, so that the
/// tests compare exact types (an integer is not a double, a bool is not an
/// integer); or it builds values from `Typed` JSON and writes them with
/// `plistlib`.
enum PythonReader {
    static let script = #"""
        import base64, csv, datetime, json, plistlib, random, sys

        EPOCH = datetime.datetime(2001, 1, 1)

        def describe(value):
            if value is None: return {"t": "null"}
            if isinstance(value, bool): return {"t": "bool", "v": value}
            if isinstance(value, int): return {"t": "int", "v": str(value)}
            if isinstance(value, float): return {"t": "float", "v": repr(value)}
            if isinstance(value, str): return {"t": "string", "v": value}
            if isinstance(value, bytes): return {"t": "bytes", "v": base64.b64encode(value).decode("ascii")}
            if isinstance(value, datetime.datetime):
                return {"t": "date", "v": repr((value.replace(tzinfo=None) - EPOCH).total_seconds())}
            if isinstance(value, plistlib.UID): return {"t": "uid", "v": str(value.data)}
            if isinstance(value, list): return {"t": "array", "v": [describe(x) for x in value]}
            if isinstance(value, dict):
                return {"t": "dict", "v": [[key, describe(x)] for key, x in value.items()]}
            raise TypeError(f"unexpected {type(value).__name__}")

        def build(typed):
            tag, value = typed["t"], typed.get("v")
            if tag == "bool": return value
            if tag == "int": return int(value)
            if tag == "float": return float(value)
            if tag == "string": return value
            if tag == "bytes": return base64.b64decode(value)
            if tag == "date": return EPOCH + datetime.timedelta(seconds=float(value))
            if tag == "uid": return plistlib.UID(int(value))
            if tag == "array": return [build(x) for x in value]
            if tag == "dict": return {key: build(x) for key, x in value}
            raise TypeError(f"cannot build {tag}")

        def text(rng):
            pools = ["abcxyz ", "0123456789", "\t\n\r\"\\/", "éüßñ€", "ĀἀЖ中文字", "😀🚢🇫🇷𝄞", "\u0000\u001f\u007f\u2028\ufeff"]
            return "".join(rng.choice(rng.choice(pools)) for _ in range(rng.choice([0, 1, 5, 14, 15, 16, 40])))

        def named(value, fallback):
            # The kinds want a name and a title with a character other than white
            # space, as ECMA-262's \s has it: U+FEFF too, which isspace() is not.
            return value + fallback if all(c.isspace() or c == "\ufeff" for c in value) else value

        def integer(rng):
            return rng.choice([0, 1, -1, 127, 128, 255, 256, 65535, 65536, 2**31, 2**32, 2**63 - 1, -2**63,
                               rng.randint(-2**63, 2**63 - 1), rng.randint(-1000, 1000)])

        def double(rng):
            while True:
                value = rng.choice([0.0, -0.0, 0.1, 1e300, 5e-324, 2.5, rng.uniform(-1e6, 1e6),
                                    rng.choice([1, -1]) * 10 ** rng.uniform(-300, 300)])
                if value == value and abs(value) != float("inf"): return value

        def generic(rng, depth):
            kinds = ["string", "int", "float", "bool"] + (["array", "object"] if depth < 4 else [])
            kind = rng.choice(kinds)
            if kind == "string": return text(rng)
            if kind == "int": return integer(rng)
            if kind == "float": return double(rng)
            if kind == "bool": return rng.random() < 0.5
            if kind == "array": return [generic(rng, depth + 1) for _ in range(rng.randint(0, 4))]
            return {f"k{index}{text(rng)[:3]}": generic(rng, depth + 1) for index in range(rng.randint(0, 4))}

        def isbn(rng):
            # An ISBN-13 with its check digit (the book schema checks it).
            digits = [9, 7, rng.choice([8, 9])] + [rng.randint(0, 9) for _ in range(9)]
            digits.append((10 - sum(d * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits)) % 10) % 10)
            return "".join(map(str, digits))

        def record(rng, kind, photos):
            # Ferry refuses negative prices and page counts (record.negative).
            if kind == "product":
                return {"name": named(text(rng), "x"), "price": abs(double(rng)),
                        "photo": "data:image/png;base64," + base64.b64encode(rng.choice(photos)).decode("ascii")}
            if kind == "book":
                return {"title": named(text(rng), "t"), "author": text(rng), "description": text(rng),
                        "pages": integer(rng) & (2**63 - 1),
                        "readThisBook": rng.random() < 0.5, "price": abs(double(rng)), "isbn": isbn(rng)}
            return {f"field{index}{text(rng)[:2]}": generic(rng, 1) for index in range(rng.randint(1, 6))}

        command = sys.argv[1]
        if command == "describe":
            kind, path = sys.argv[2], sys.argv[3]
            if kind == "json":
                with open(path, encoding="utf-8") as file: value = json.load(file)
            elif kind == "csv":
                with open(path, encoding="utf-8", newline="") as file: value = list(csv.DictReader(file))
            else:
                with open(path, "rb") as file: value = plistlib.load(file)
            json.dump(describe(value), sys.stdout)
        elif command == "write-plist":
            with open(sys.argv[2], encoding="utf-8") as file: value = build(json.load(file))
            with open(sys.argv[3], "wb") as file:
                plistlib.dump(value, file, fmt=plistlib.FMT_BINARY, sort_keys=False)
        elif command == "random":
            kind, seed, count, path, photo_dir = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
            photos = []
            for name in ["xbox-360.png", "wii.png", "wireless-controller.png"]:
                with open(f"{photo_dir}/{name}", "rb") as file: photos.append(file.read())
            rng = random.Random(seed)
            with open(path, "w", encoding="utf-8") as file:
                json.dump([record(rng, kind, photos) for _ in range(count)], file, ensure_ascii=rng.random() < 0.5)
        else:
            sys.exit(f"unknown command {command}")
        """#

    static func python(_ arguments: [String]) throws -> ProcessResult {
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, timeout: 120)
        try #require(!result.timedOut, "python3 hung")
        try #require(result.status == 0, "python3 \(arguments.joined(separator: " ")) failed: \(result.err)")
        return result
    }

    /// What Python's `json` (`kind` json), `plistlib` (plist) or
    /// `csv.DictReader` (csv) reads from `path`.
    static func describe(_ kind: String, _ path: String) throws -> Typed {
        let result = try python(["describe", kind, path])
        return try JSONDecoder().decode(Typed.self, from: Data(result.stdout))
    }

    /// Writes `value` with `plistlib.dump(fmt=FMT_BINARY, sort_keys=False)`.
    static func writePlist(_ value: Typed, to path: String, in folder: ScratchFolder) throws {
        let spec = try folder.write(UUID().uuidString + ".typed.json", [UInt8](try JSONEncoder().encode(value)))
        _ = try python(["write-plist", spec, path])
    }

    /// Writes a random JSON document of `count` records of `kind` (`product`,
    /// `book` or `generic`), the same for the same seed; no nulls, as plists
    /// and archives leave null fields out.
    static func randomDocument(kind: String, seed: Int, count: Int, to path: String) throws {
        _ = try python(["random", kind, String(seed), String(count), path, TestPaths.example("photos")])
    }
}
