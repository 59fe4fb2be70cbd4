#!/usr/bin/env python3
"""Time Ferry's Excel workbooks against XlsxWriter, python-calamine and openpyxl.

    Scripts/bench-xlsx.py                          # 1,000,000 products, 1 run, both ways
    Scripts/bench-xlsx.py --count 100000 --runs 3
    Scripts/bench-xlsx.py --only write             # JSON Lines -> .xlsx only
    FERRY=/usr/local/bin/ferry PYTHON=/usr/bin/python3 Scripts/bench-xlsx.py

The products are Scripts/gen-products.py's (JSON Lines, compact, about 40%
of photos null), made once per count in --work.

- write: JSON Lines -> .xlsx. ferry: `ferry convert in.jsonl out.xlsx
  --force` (written to a temporary file, synced and renamed); xlsxwriter:
  Python reads the lines with `json.loads` and writes rows with XlsxWriter's
  constant_memory mode, a bold frozen header as Ferry writes it.
- read: .xlsx (the one XlsxWriter wrote, shared strings and all) -> JSON
  Lines. ferry: `ferry convert in.xlsx out.jsonl --force`, skipped with a
  message while `ferry formats` says xlsx cannot be read; calamine:
  python-calamine's rows as dicts through `json.dumps`; openpyxl: the same
  from its read_only mode.

Every run is timed by Scripts/bench-run.py (wall from spawn to reap, peak
RSS and CPU from wait4), through bench_timing.py's `timed`; the medians are
printed with the ratios of each peer to ferry. PYTHON is the interpreter
with xlsxwriter, python-calamine and openpyxl (default: the test venv,
.build/python-venv).
"""

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile

from bench_timing import timed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_script(name, module):
    """A script of Scripts/ as a module."""
    spec = importlib.util.spec_from_file_location(module, os.path.join(ROOT, "Scripts", name))
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


# MARK: - Peers

XLSXWRITER = """
import json, sys, xlsxwriter
source, target = sys.argv[1:3]
book = xlsxwriter.Workbook(target, {"constant_memory": True})
sheet = book.add_worksheet("Products")
bold = book.add_format({"bold": True})
sheet.freeze_panes(1, 0)
columns = {}
row = 0
with open(source, encoding="utf-8", buffering=1 << 20) as lines:
    for line in lines:
        record = json.loads(line)
        if row == 0:
            for name in record:
                columns[name] = len(columns)
                sheet.write_string(0, columns[name], name, bold)
            row = 1
        for name, value in record.items():
            column = columns.setdefault(name, len(columns))
            if value is None:
                continue
            if isinstance(value, (dict, list)):
                value = json.dumps(value, ensure_ascii=False)
            sheet.write(row, column, value)
        row += 1
book.close()
"""

CALAMINE = """
import json, sys
from python_calamine import CalamineWorkbook
source, target = sys.argv[1:3]
rows = iter(CalamineWorkbook.from_path(source).get_sheet_by_index(0).to_python(skip_empty_area=False))
header = next(rows)
with open(target, "w", encoding="utf-8", buffering=1 << 20) as out:
    for row in rows:
        out.write(json.dumps({k: (None if v == "" else v) for k, v in zip(header, row)}, ensure_ascii=False, default=str))
        out.write("\\n")
"""

OPENPYXL = """
import json, sys, openpyxl
source, target = sys.argv[1:3]
rows = openpyxl.load_workbook(source, read_only=True).worksheets[0].iter_rows(values_only=True)
header = next(rows)
with open(target, "w", encoding="utf-8", buffering=1 << 20) as out:
    for row in rows:
        out.write(json.dumps(dict(zip(header, row)), ensure_ascii=False, default=str))
        out.write("\\n")
"""


def ferry_reads_xlsx(ferry):
    """Whether `ferry formats` says xlsx READ yes (read under the header's READ column)."""
    lines = subprocess.run([ferry, "formats"], capture_output=True, text=True).stdout.splitlines()
    column = lines[0].find("READ") if lines else -1
    for line in lines[1:]:
        if column >= 0 and line.split()[:1] == ["xlsx"]:
            return line[column:column + 4].strip() == "yes"
    return False


def report(title, results, base):
    print(f"\n{title}")
    print(f"{'tool':<12} {'wall s':>8} {'max RSS MB':>11} {'CPU s':>7} {'vs ferry':>9}")
    for name, (wall, rss, cpu) in results.items():
        ratio = f"{wall / results[base][0]:.1f}x" if base in results else "-"
        print(f"{name:<12} {wall:>8.2f} {rss:>11.1f} {cpu:>7.2f} {ratio:>9}")


def median_of(runs, command, stdout_path=None):
    samples = [timed(command, stdout_path) for _ in range(runs)]
    return tuple(statistics.median(sample[i] for sample in samples) for i in range(3))


# MARK: - Main

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--only", choices=["write", "read"], help="one direction (default: both)")
    parser.add_argument("--work", default=os.environ.get("WORK", os.path.join(tempfile.gettempdir(), "ferry-bench")))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ferry = os.environ.get("FERRY") or os.path.join(ROOT, ".build", "release", "ferry")
    python = os.environ.get("PYTHON") or os.path.join(ROOT, ".build", "python-venv", "bin", "python")

    source = os.path.join(args.work, f"xlsx-products-{args.count}.jsonl")
    if not os.path.exists(source):
        print(f"==> generating {args.count} products", file=sys.stderr)
        gen = load_script("gen-products.py", "gen_products")
        with open(source + ".tmp", "w", encoding="utf-8", newline="", buffering=1 << 20) as out:
            gen.write_json(out, gen.products(args.count), lines_only=True)
        os.replace(source + ".tmp", source)

    workbook = os.path.join(args.work, f"xlsx-products-{args.count}-xlsxwriter.xlsx")
    if args.only != "read":
        results = {
            "ferry": median_of(args.runs, [ferry, "convert", source,
                                                  os.path.join(args.work, "xlsx-out-ferry.xlsx"), "--force"]),
            "xlsxwriter": median_of(args.runs, [python, "-c", XLSXWRITER, source, workbook]),
        }
        report(f"JSON Lines -> .xlsx, {args.count} products", results, "ferry")
    if args.only != "write":
        if not os.path.exists(workbook):
            subprocess.run([python, "-c", XLSXWRITER, source, workbook], check=True)
        results = {}
        if ferry_reads_xlsx(ferry):
            results["ferry"] = median_of(args.runs, [ferry, "convert", workbook,
                                                            os.path.join(args.work, "xlsx-out-ferry.jsonl"), "--force"])
        else:
            print("\nferry: skipped reading, `ferry formats` says xlsx READ no (the reader is not merged yet)")
        for name, script in [("calamine", CALAMINE), ("openpyxl", OPENPYXL)]:
            results[name] = median_of(args.runs, [python, "-c", script, workbook,
                                                         os.path.join(args.work, f"xlsx-out-{name}.jsonl")])
        report(f".xlsx (XlsxWriter's) -> JSON Lines, {args.count} products", results, "ferry")


if __name__ == "__main__":
    main()
