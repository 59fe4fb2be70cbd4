#!/usr/bin/env python3
"""Time `ferry validate --schema` against orjson + jsonschema-rs, side by side,
with a schema as users write them.

    Scripts/bench-schema.py                     # 1,000,000 products, 3 runs
    Scripts/bench-schema.py --count 100000 --runs 1
    FERRY=.build/release/ferry Scripts/bench-schema.py
    Scripts/bench-schema.py --infer              # schema infer against validate only

The schema is Scripts/bench-schemas/shop.schema.json: `$ref` to `$defs`
(a label, a money type), `anyOf` (a nullable photo), `if`/`then` (whole
yen when the currency is JPY), `patternProperties` (`name_de`, ...),
`dependentRequired` (a currency with every price), a `pattern` and an
`enum`, and `additionalProperties: false`. The products are
Scripts/gen-products.py's JSON Lines with photo names that do not resolve;
some yen prices have cents, so a few percent of the records are invalid.

- ferry: `ferry validate FILE --schema SCHEMA --photos skip --max-errors 0
  --report-format json -o REPORT` (every error in the report, none capped);
- jsonschema-rs: Scripts/bench-validate.py's `jsonschema-rs-schema` mode,
  orjson for each line and `is_valid` for each record, counting them.

A second row times `ferry schema infer` against `ferry validate` on the
same products as CSV (issue 32's target: infer under twice validate's
wall time); `--infer` runs that row alone, with no peer to install.

Each run is timed by Scripts/bench-run.py (wall from spawn to reap, peak
RSS from wait4); the medians are printed with the ratio (issue 32's
target: ferry at least 8x faster, under 128 MB), and both must count the
same invalid records. orjson and jsonschema-rs are installed with pip in a
venv under the work folder.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from bench_timing import timed

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(SCRIPTS, "bench-schemas", "shop.schema.json")


def ensure_peer(venv):
    python = os.path.join(venv, "bin", "python")
    probe = [python, "-c", "import orjson, jsonschema_rs"]
    if os.path.exists(python) and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    print(f"==> installing orjson and jsonschema-rs with pip in {venv}", file=sys.stderr)
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", "orjson", "jsonschema-rs"], check=True)
    return python


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "ferry-bench-schema"))
    parser.add_argument("--infer", action="store_true", help="only time schema infer against validate")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ferry = os.environ.get("FERRY", os.path.join(os.path.dirname(SCRIPTS), ".build", "release", "ferry"))
    if not args.infer:
        compare_peer(args, ferry)
    compare_infer(args, ferry)


def print_medians(heading, results):
    """Prints the median wall time and peak RSS of each row's runs; returns the walls."""
    print(f"{heading:<16}{'wall s':>9}{'RSS MB':>9}")
    walls = {}
    for name, runs in results.items():
        walls[name] = statistics.median(w for w, _ in runs)
        print(f"{name:<16}{walls[name]:>9.3f}{statistics.median(r for _, r in runs):>9.0f}")
    return walls


def compare_infer(args, ferry):
    """Times `schema infer` and `validate` on one CSV, in turn, and prints the ratio."""
    data = os.path.join(args.work, f"products-{args.count}.csv")
    if not os.path.exists(data):
        subprocess.run([sys.executable, os.path.join(SCRIPTS, "gen-products.py"), "--count", str(args.count),
                        "--format", "csv", "--photos", "missing", "--out", data], check=True)
    schema = os.path.join(args.work, "inferred.schema.json")
    commands = {
        "schema infer": [ferry, "schema", "infer", data, "-o", schema, "--force"],
        # The photos do not resolve: validate stops reporting at 1,000 errors
        # (exit 3), and reads every record all the same.
        "validate": [ferry, "validate", data],
    }
    results = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            results[name].append(timed(command, accept=(0, 1, 3), stderr=subprocess.DEVNULL)[:2])
    # The schema drawn passes the file it came from.
    timed([ferry, "validate", data, "--schema", schema], accept=(0,), stderr=subprocess.DEVNULL)
    print(f"{args.count:,} products as CSV, median of {args.runs}")
    walls = print_medians("command", results)
    print(f"schema infer takes {walls['schema infer'] / walls['validate']:.2f}x validate's wall time (target: under 2)")


def compare_peer(args, ferry):
    """Times `validate --schema` against orjson + jsonschema-rs, and prints the ratio."""
    python = ensure_peer(os.path.join(args.work, "venv"))
    data = os.path.join(args.work, f"products-{args.count}.jsonl")
    if not os.path.exists(data):
        subprocess.run([sys.executable, os.path.join(SCRIPTS, "gen-products.py"), "--count", str(args.count),
                        "--format", "jsonl", "--photos", "missing", "--out", data], check=True)
    report = os.path.join(args.work, "report.json")
    peer_out = os.path.join(args.work, "peer.txt")
    ferry_command = [ferry, "validate", data, "--schema", SCHEMA, "--photos", "skip", "--max-errors", "0",
                     "--report-format", "json", "-o", report, "--force"]
    peer_command = [python, os.path.join(SCRIPTS, "bench-validate.py"), "jsonschema-rs-schema", SCHEMA, data]
    results = {"ferry": [], "jsonschema-rs": []}
    for _ in range(args.runs):
        # Both exit 1 when records are invalid, as they are here.
        results["ferry"].append(timed(ferry_command, accept=(0, 1), stderr=subprocess.DEVNULL)[:2])
        results["jsonschema-rs"].append(
            timed(peer_command, stdout_path=peer_out, accept=(0, 1), stderr=subprocess.DEVNULL)[:2])
    summary = json.load(open(report))["summary"]
    peer = open(peer_out).read().split()
    peer_records, peer_invalid = int(peer[0]), int(peer[2])
    if (summary["records"], summary["invalidRecords"]) != (peer_records, peer_invalid):
        sys.exit(f"the counts differ: ferry {summary['records']} records, {summary['invalidRecords']} invalid; "
                 f"jsonschema-rs {peer_records}, {peer_invalid}")
    print(f"{args.count:,} products, {peer_invalid:,} invalid, median of {args.runs}")
    walls = print_medians("tool", results)
    print(f"ferry is {walls['jsonschema-rs'] / walls['ferry']:.1f}x orjson + jsonschema-rs")


if __name__ == "__main__":
    main()
