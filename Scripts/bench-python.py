#!/usr/bin/env python3
"""Python baselines for Scripts/bench.sh: the standard library's csv and json.

    python3 Scripts/bench-python.py csv2json  IN.csv  OUT.json
    python3 Scripts/bench-python.py json2csv  IN.json OUT.csv
    python3 Scripts/bench-python.py csv2jsonl IN.csv  OUT.jsonl
    python3 Scripts/bench-python.py plist2json IN.plist OUT.json
    python3 Scripts/bench-python.py same A B     # A and B hold the same values?

Each does what `ferry convert` does for the benchmark's products, the way a
Python user would write it:

- csv2json and csv2jsonl stream csv.DictReader rows out one at a time (the
  JSON array is written element by element, not built in memory). As Ferry
  does for products, `price` becomes a number (an int when it is one) and an
  empty `price` or `photo` cell becomes null; other cells stay strings.
- json2csv reads the whole array with json.load (the json module cannot
  stream) and writes it with csv.DictWriter: header from the first record,
  None as an empty cell, LF line endings, minimal quoting.
- plist2json loads the whole plist with plistlib.load (binary or XML) and
  writes it with json.dumps, compact, which runs the C encoder (json.dump and
  indented output run the pure-Python one, several times slower), so this is
  the fastest plain use of the two modules.

UTF-8 throughout, non-ASCII text kept as it is (ensure_ascii=False).

`same` checks a benchmark's output against a baseline's: it loads each file
(JSON by a .json extension, else plistlib, binary or XML) and compares the
values, telling an int from a float and a bool from a number, and keys in
order. It prints "same (N records)" or the first differences, and exits 1
when they differ.
"""

import csv
import json
import plistlib
import sys

BUFFER = 1 << 20
NULL_WHEN_EMPTY = ("price", "photo")


def typed(row):
    """The product's cells as Ferry types them: price a number, empty optional cells null."""
    for name in NULL_WHEN_EMPTY:
        if row.get(name) == "":
            row[name] = None
    price = row.get("price")
    if price is not None:
        try:
            row["price"] = int(price)
        except ValueError:
            row["price"] = float(price)
    return row


def csv_rows(path):
    source = open(path, encoding="utf-8", newline="", buffering=BUFFER)
    return source, csv.DictReader(source)


def csv2json(source_path, target_path):
    source, rows = csv_rows(source_path)
    encode = json.JSONEncoder(ensure_ascii=False, indent=2).encode
    with source, open(target_path, "w", encoding="utf-8", buffering=BUFFER) as target:
        target.write("[")
        separator = "\n"
        for row in rows:
            target.write(separator)
            target.write(encode(typed(row)))
            separator = ",\n"
        target.write("\n]\n")


def csv2jsonl(source_path, target_path):
    source, rows = csv_rows(source_path)
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    with source, open(target_path, "w", encoding="utf-8", buffering=BUFFER) as target:
        for row in rows:
            target.write(encode(typed(row)))
            target.write("\n")


def json2csv(source_path, target_path):
    with open(source_path, encoding="utf-8", buffering=BUFFER) as source:
        records = json.load(source)
    with open(target_path, "w", encoding="utf-8", newline="", buffering=BUFFER) as target:
        if not records:
            return
        writer = csv.DictWriter(target, fieldnames=list(records[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)


def plist2json(source_path, target_path):
    with open(source_path, "rb") as source:
        value = plistlib.load(source)
    with open(target_path, "w", encoding="utf-8", buffering=BUFFER) as target:
        target.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
        target.write("\n")


def load_any(path):
    if path.endswith(".json"):
        with open(path, encoding="utf-8", buffering=BUFFER) as source:
            return json.load(source)
    with open(path, "rb") as source:
        return plistlib.load(source)


def strict(value):
    """The value with its types spelled out, so 1 != 1.0 != True, and dict keys in order."""
    if isinstance(value, dict):
        return ("dict", [(key, strict(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [strict(item) for item in value])
    return (type(value).__name__, value)


def same(path_a, path_b):
    a, b = load_any(path_a), load_any(path_b)
    if isinstance(a, list) and isinstance(b, list):
        differences = [i for i, (x, y) in enumerate(zip(a, b)) if strict(x) != strict(y)]
        if len(a) != len(b):
            print(f"DIFFERENT: {len(a)} records vs {len(b)}")
        for i in differences[:3]:
            print(f"DIFFERENT at record {i}: {a[i]!r} vs {b[i]!r}")
        if differences:
            print(f"{len(differences)} of {min(len(a), len(b))} records differ")
        if differences or len(a) != len(b):
            sys.exit(1)
        print(f"same ({len(a)} records)")
    elif strict(a) != strict(b):
        print("DIFFERENT")
        sys.exit(1)
    else:
        print("same")


COMMANDS = {"csv2json": csv2json, "json2csv": json2csv, "csv2jsonl": csv2jsonl, "plist2json": plist2json,
            "same": same}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in COMMANDS:
        sys.exit(f"usage: {sys.argv[0]} {{{'|'.join(COMMANDS)}}} INPUT OUTPUT")
    COMMANDS[sys.argv[1]](sys.argv[2], sys.argv[3])
