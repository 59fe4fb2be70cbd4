#!/usr/bin/env python3
"""Time `ferry merge` against DuckDB and Miller, side by side in one run.

    Scripts/bench-merge.py                      # 1,000,000 products a file, 3 runs
    Scripts/bench-merge.py --count 20000 --runs 1
    FERRY=/usr/local/bin/ferry Scripts/bench-merge.py   # a built binary
    Scripts/bench-merge.py --conflicts 1/3 --spaced     # a price-update feed, as json.dumps writes

Two JSON Lines files of COUNT products each (Scripts/gen-products.py's
records, with a `sku`) whose keys overlap by 30%: the first 30% of the
second file are the last 30% of the first, a share of them (--conflicts,
1/100 by default; 1/3 is 10% of a file) with another price (a conflict),
and the rest are products of their own. The lines are compact, as the
JSON Lines writer writes them, unless --spaced writes them as Python's
`json.dumps` does by default (`", "` and `": "`, non-ASCII text as `\\u`
escapes); --crlf ends them with CR LF. Each tool
merges them keeping the first record of each sku, in first-seen order,
into a JSON Lines file:

- ferry: `ferry merge a.jsonl b.jsonl -o - > out` (standard output, as the
  peers write, unsynced); `ferry-file` names the output, which ferry writes
  to a temporary file, syncs and renames; `ferry-spill` sets a memory
  budget (--memory, default 64M here) small enough to force the on-disk path;
- duckdb: `row_number() OVER (PARTITION BY sku ORDER BY src, rn)`, keeping
  row 1, ordered by source and row, to JSON Lines (on every core);
- mlr: `mlr --ijsonl --ojsonl head -n 1 -g sku`, when Miller is installed
  (apt-get install miller).

Every run is timed by Scripts/bench-run.py (wall from spawn to reap, peak
RSS and CPU from wait4); the medians are printed with the ratios to
DuckDB, and the median of each run's wall ratio to the DuckDB run of its
round ("per run", which the host's drift moves less); each output's skus
are checked against DuckDB's, in order.
DuckDB is installed with pip in a venv under the work folder, as
Scripts/bench.sh installs its engines.
"""

import argparse
import fractions
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from bench_timing import timed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CONFLICTS = fractions.Fraction(1, 100)


def load_generator():
    """Scripts/gen-products.py as a module: its records and its writer."""
    spec = importlib.util.spec_from_file_location("gen_products", os.path.join(ROOT, "Scripts", "gen-products.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# MARK: - Data

def shape_name(conflicts, spaced, crlf):
    """What sets the files apart from the default shape's, for their names
    (empty for the default: its files keep their names)."""
    share = f"{conflicts.numerator}" + ("" if conflicts.denominator == 1 else f"in{conflicts.denominator}")
    name = "" if conflicts == DEFAULT_CONFLICTS else f"-c{share}"
    return name + ("-spaced" if spaced else "") + ("-crlf" if crlf else "")


def make_inputs(work, count, conflicts=DEFAULT_CONFLICTS, spaced=False, crlf=False):
    """The two files, made once per count and shape."""
    shape = shape_name(conflicts, spaced, crlf)
    first = os.path.join(work, f"merge-a-{count}{shape}.jsonl")
    second = os.path.join(work, f"merge-b-{count}{shape}.jsonl")
    if os.path.exists(first) and os.path.exists(second):
        return first, second
    gen = load_generator()
    print(f"==> generating 2 x {count} products{shape}", file=sys.stderr)
    style = {"spaced": spaced, "newline": "\r\n" if crlf else "\n"}
    with open(first + ".tmp", "w", encoding="utf-8", newline="", buffering=1 << 20) as out:
        gen.write_json(out, gen.products(count), lines_only=True, **style)
    overlap = count * 3 // 10

    def changed(index):
        # Spread evenly: the share's floor steps at this index (for 1/100,
        # every hundredth index; for 1/3, every third).
        return (index * conflicts.numerator) // conflicts.denominator != \
            ((index - 1) * conflicts.numerator) // conflicts.denominator

    def second_records():
        for index, record in enumerate(gen.products(count)):
            if index >= count - overlap:
                if changed(index):
                    record["price"] = round(record["price"] + 1, 2)
                yield record
        for index, record in enumerate(gen.products(count - overlap, seed=gen.SEED + 1)):
            record["sku"] = f"GB-{index + 1:07d}"
            yield record

    with open(second + ".tmp", "w", encoding="utf-8", newline="", buffering=1 << 20) as out:
        gen.write_json(out, second_records(), lines_only=True, **style)
    os.replace(first + ".tmp", first)
    os.replace(second + ".tmp", second)
    return first, second


# MARK: - Tools

def ensure_duckdb(venv):
    """The venv's python with duckdb, installed with pip on first use
    (as bench.sh's ensure_pip does); None when pip cannot install it."""
    python = os.path.join(venv, "bin", "python")
    if os.path.exists(python) and subprocess.run([python, "-c", "import duckdb"], capture_output=True).returncode == 0:
        return python
    print(f"==> installing duckdb with pip in {venv}", file=sys.stderr)
    if not os.path.exists(python) and subprocess.run([sys.executable, "-m", "venv", venv]).returncode != 0:
        return None
    if subprocess.run([python, "-m", "pip", "install", "-q", "duckdb"]).returncode != 0:
        return None
    return python


DUCKDB_MERGE = """
import sys, duckdb
a, b, out = sys.argv[1:4]
q = lambda path: "'" + path.replace("'", "''") + "'"
duckdb.sql(f'''
COPY (
  SELECT * EXCLUDE (src, rn, k) FROM (
    SELECT *, row_number() OVER (PARTITION BY sku ORDER BY src, rn) AS k FROM (
      SELECT *, 1 AS src, row_number() OVER () AS rn FROM read_json({q(a)}, format = 'newline_delimited')
      UNION ALL BY NAME
      SELECT *, 2 AS src, row_number() OVER () AS rn FROM read_json({q(b)}, format = 'newline_delimited')
    )
  ) WHERE k = 1 ORDER BY src, rn
) TO {q(out)} (FORMAT json)''')
"""


def skus(path):
    import json
    with open(path, encoding="utf-8") as file:
        return [json.loads(line)["sku"] for line in file if line.strip()]


# MARK: - Main

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--spill-memory", default="64M", help="--memory of the ferry-spill row")
    parser.add_argument("--conflicts", type=fractions.Fraction, default=DEFAULT_CONFLICTS,
                        help="share of the shared skus given another price (1/100; 1/3 or 0.333 for a price feed)")
    parser.add_argument("--spaced", action="store_true", help="lines as Python's json.dumps writes them by default")
    parser.add_argument("--crlf", action="store_true", help="lines that end with CR LF")
    parser.add_argument("--only", help="the tools to run, by name, comma-separated (default: all)")
    parser.add_argument("--work", default=os.environ.get("WORK", os.path.join(tempfile.gettempdir(), "ferry-bench")))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ferry = os.environ.get("FERRY") or os.path.join(ROOT, ".build", "release", "ferry")
    if not os.access(ferry, os.X_OK):
        raise SystemExit(f"bench-merge.py: no ferry at {ferry}; build it or set FERRY")
    if not 0 <= args.conflicts <= 1:
        parser.error("--conflicts must be between 0 and 1")
    first, second = make_inputs(args.work, args.count, args.conflicts, args.spaced, args.crlf)
    outputs = os.path.join(args.work, "merge-out")
    os.makedirs(outputs, exist_ok=True)

    tools = {
        "ferry": ([ferry, "merge", first, second, "-o", "-"], "ferry.jsonl", True),
        "ferry-file": ([ferry, "merge", first, second, "-o", os.path.join(outputs, "ferry-file.jsonl"), "--force"], None, False),
        "ferry-spill": ([ferry, "merge", first, second, "-o", "-", "--memory", args.spill_memory], "ferry-spill.jsonl", True),
    }
    wanted = args.only.split(",") if args.only else None
    python = ensure_duckdb(os.path.join(args.work, "venv")) if not wanted or "duckdb" in wanted else None
    if python:
        tools["duckdb"] = ([python, "-c", DUCKDB_MERGE, first, second, os.path.join(outputs, "duckdb.jsonl")], None, False)
    elif not wanted or "duckdb" in wanted:
        print("==> pip could not install duckdb: its row is left out", file=sys.stderr)
    if wanted and "mlr" not in wanted:
        pass
    elif shutil.which("mlr"):
        tools["mlr"] = (["mlr", "--ijsonl", "--ojsonl", "head", "-n", "1", "-g", "sku", first, second], "mlr.jsonl", True)
    else:
        print("==> mlr is not installed (apt-get install miller): its row is left out", file=sys.stderr)

    if wanted:
        tools = {name: tool for name, tool in tools.items() if name in wanted}

    results = {name: [] for name in tools}
    for run in range(args.runs):
        for name, (command, stdout_name, _) in tools.items():
            if name == "mlr" and run > 0:
                continue  # tens of seconds a run: once is enough
            stdout_path = os.path.join(outputs, stdout_name) if stdout_name else None
            # Ferry runs as a user runs it, not --quiet: its conflicts and
            # summary go to standard error, kept in a file.
            with open(os.path.join(outputs, name + ".stderr"), "w") as stderr:
                results[name].append(timed(command, stdout_path, stderr=stderr))

    size = (os.path.getsize(first) + os.path.getsize(second)) / 1e6
    overlap = args.count * 3 // 10
    changed = sum(1 for index in range(args.count - overlap, args.count)
                  if (index * args.conflicts.numerator) // args.conflicts.denominator
                  != ((index - 1) * args.conflicts.numerator) // args.conflicts.denominator)
    style = ("spaced" if args.spaced else "compact") + (", CR LF" if args.crlf else "")
    print(f"merge of 2 x {args.count:,} products ({size:.1f} MB of {style} JSON Lines, keys overlapping by 30%, "
          f"{changed:,} conflicts), keeping the first; medians of {args.runs} run(s); timings on a shared machine")
    print(f"{'tool':<12} {'wall s':>8} {'CPU s':>8} {'peak RSS MB':>12} {'vs duckdb (wall, CPU)':>24} {'per run':>9}")
    medians = {name: tuple(statistics.median(run[i] for run in runs) for i in range(3)) for name, runs in results.items()}
    base = medians.get("duckdb")
    for name, (wall, rss, cpu) in medians.items():
        ratio = f"{base[0] / wall:.1f}x, {base[2] / cpu:.1f}x" if base and name != "duckdb" else ""
        # The host's speed drifts from minute to minute: each run's ratio to
        # the DuckDB run beside it (the same round) moves less than the
        # ratio of the two medians, taken from different rounds.
        paired = ""
        if base and name != "duckdb" and len(results[name]) == len(results["duckdb"]):
            paired = f"{statistics.median(d[0] / f[0] for f, d in zip(results[name], results['duckdb'])):.1f}x"
        print(f"{name:<12} {wall:>8.3f} {cpu:>8.2f} {rss:>12.0f} {ratio:>24} {paired:>9}")

    if base:
        expected = skus(os.path.join(outputs, "duckdb.jsonl"))
        for name, file in [("ferry", "ferry.jsonl"), ("ferry-file", "ferry-file.jsonl"),
                           ("ferry-spill", "ferry-spill.jsonl"), ("mlr", "mlr.jsonl")]:
            if name in tools:
                same = skus(os.path.join(outputs, file)) == expected
                print(f"{name}: {'the same skus in the same order as duckdb' if same else 'DIFFERS from duckdb'}")


if __name__ == "__main__":
    main()
