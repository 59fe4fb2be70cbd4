#!/usr/bin/env python3
"""Time FerryDecoder against Foundation's JSONDecoder, side by side.

    Scripts/bench-codable.py                    # 1,000,000 products, 3 runs
    Scripts/bench-codable.py --count 100000 --runs 1

Decodes COUNT products (Scripts/gen-products.py's records) into a Swift
`[Product]` (name: String, price: Decimal?, photo: String?) in one process
per run, with Scripts/codable-bench (built here in release):

- foundation: `JSONDecoder().decode([Product].self, from:)` on a JSON array;
- ferry-json, ferry-jsonl, ferry-csv: `FerryDecoder().decode([Product].self,
  from:)` on the same records as a JSON array, JSON Lines and CSV (the
  product kind's rules checked on each record, as by default);
- stream-jsonl, stream-csv: `FerryDecoder().records(of:from:)`, one record at
  a time (issue 33's target: under 64 MB of RSS for 1M).

Each run is timed by Scripts/bench-run.py (wall from spawn to reap, peak
RSS from wait4); the medians are printed with each way's speed-up over
Foundation (issue 33's target: at least 3x for ferry-jsonl and ferry-csv),
and every way must report the same count and the same sum of prices.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

from bench_timing import timed

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SCRIPTS)
PACKAGE = os.path.join(SCRIPTS, "codable-bench")

WAYS = [
    ("foundation", "foundation", "json"),
    ("ferry-json", "ferry", "json"),
    ("ferry-jsonl", "ferry", "jsonl"),
    ("ferry-csv", "ferry", "csv"),
    ("stream-jsonl", "stream", "jsonl"),
    ("stream-csv", "stream", "csv"),
]


def build():
    subprocess.run(
        ["swift", "build", "-c", "release", "--package-path", PACKAGE, "-Xswiftc", "-use-ld=lld"],
        check=True, stdout=subprocess.DEVNULL)
    path = subprocess.run(
        ["swift", "build", "-c", "release", "--package-path", PACKAGE, "--show-bin-path"],
        check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(path, "codable-bench")


def generate(folder, count):
    files = {}
    for fmt in ("json", "jsonl", "csv"):
        path = os.path.join(folder, f"products-{count}.{fmt}")
        if not os.path.exists(path):
            subprocess.run(
                [sys.executable, os.path.join(SCRIPTS, "gen-products.py"), "--count", str(count),
                 "--format", fmt, "--photos", "missing", "--out", path], check=True)
        files[fmt] = path
    return files


def run(binary, way, path, folder):
    output = os.path.join(folder, "output.txt")
    wall, rss, _ = timed([binary, way, path], stdout_path=output)
    with open(output) as file:
        return wall, rss, file.read().strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "ferry-bench-codable"))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    binary = build()
    files = generate(args.work, args.count)
    results = {name: [] for name, _, _ in WAYS}
    outputs = {}
    for _ in range(args.runs):
        for name, way, fmt in WAYS:
            wall, rss, out = run(binary, way, files[fmt], args.work)
            results[name].append((wall, rss))
            outputs[name] = out
    if len(set(outputs.values())) != 1:
        sys.exit(f"the ways disagree: {outputs}")
    base = statistics.median(w for w, _ in results["foundation"])
    print(f"{args.count:,} products, median of {args.runs}: {outputs['foundation']}")
    print(f"{'way':<14}{'wall s':>9}{'RSS MB':>9}{'vs Foundation':>15}")
    for name, _, _ in WAYS:
        wall = statistics.median(w for w, _ in results[name])
        rss = statistics.median(r for _, r in results[name])
        print(f"{name:<14}{wall:>9.3f}{rss:>9.0f}{base / wall:>14.2f}x")


if __name__ == "__main__":
    main()
