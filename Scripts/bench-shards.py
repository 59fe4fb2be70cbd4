#!/usr/bin/env python3
"""Times ferry on one file cut into shards, as a scheduler with SLOTS
processes at a time runs them (Formats/shards.md), for the closing note of
issue 22 and the projection in BENCHMARKS.md.

    Scripts/bench-shards.py FERRY INPUT [--shards 1,2,4] [--slots 2] [--runs 3]

For each shard count N: `ferry plan INPUT --shards N` (timed), then every
shard's `ferry convert --plan --shard K` (to JSON Lines) and every shard's
`ferry validate --plan --shard K --report-format json`, SLOTS at a time, then
`ferry validate --combine`. Prints per operation and N the median over the
runs of: the wall time from the first shard's start to the last's end,
the CPU time of all shards (user + system, from wait4), the largest peak
RSS of one shard, the median wall time of one shard, and the throughput
of one shard (its bytes over its wall time). Outputs go to a temporary
folder and are compared with the one-process run's.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def spawn(command, stdout):
    with open(stdout, "wb") as out:
        return os.posix_spawnp(command[0], command, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1)])


def run_pool(commands, slots):
    """Runs (command, stdout) pairs, `slots` at a time; returns the wall
    time of all, and (wall, cpu, rss KiB, status) per command."""
    pending = list(enumerate(commands))
    running = {}
    results = [None] * len(commands)
    start = time.perf_counter()
    while pending or running:
        while pending and len(running) < slots:
            index, (command, stdout) = pending.pop(0)
            running[spawn(command, stdout)] = (index, time.perf_counter())
        pid, status, usage = os.wait4(-1, 0)
        index, began = running.pop(pid)
        results[index] = (time.perf_counter() - began, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
                          os.waitstatus_to_exitcode(status))
    return time.perf_counter() - start, results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ferry")
    parser.add_argument("input")
    parser.add_argument("--shards", default="1,2,4")
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="ferry-shards-")
    size = os.path.getsize(args.input)
    whole = os.path.join(work, "whole.jsonl")
    subprocess.run([args.ferry, "convert", args.input, whole, "--to", "jsonl", "--quiet", "--force"], check=True)
    rows = []
    for count in [int(n) for n in args.shards.split(",")]:
        plan_path = os.path.join(work, "plan-%d.json" % count)
        figures = {"plan": [], "convert": [], "validate": [], "combine": []}
        for _ in range(args.runs):
            wall, results = run_pool([([args.ferry, "plan", args.input, "--shards", str(count)], plan_path)], 1)
            figures["plan"].append((wall, results))
            plan = json.load(open(plan_path))
            shards = plan["shards"]
            convert = [([args.ferry, "convert", args.input, "-", "--to", "jsonl", "--quiet", "--plan", plan_path,
                         "--shard", str(k)], os.path.join(work, "part-%d.jsonl" % k)) for k in range(count)]
            figures["convert"].append(run_pool(convert, args.slots))
            # Compared by cat and cmp: bytes held here would count in the
            # peak RSS of the children spawned after (Linux keeps it across exec).
            parts = " ".join(os.path.join(work, "part-%d.jsonl" % k) for k in range(count))
            if subprocess.run("cat %s | cmp -s - %s" % (parts, whole), shell=True).returncode != 0:
                sys.exit("the %d shards' outputs differ from one convert" % count)
            reports = [os.path.join(work, "report-%d.json" % k) for k in range(count)]
            validate = [([args.ferry, "validate", args.input, "--report-format", "json", "--quiet", "--photos", "skip", "--plan", plan_path,
                          "--shard", str(k)], reports[k]) for k in range(count)]
            figures["validate"].append(run_pool(validate, args.slots))
            combine = [([args.ferry, "validate", "--combine"] + reports + ["--report-format", "json"],
                        os.path.join(work, "combined.json"))]
            figures["combine"].append(run_pool(combine, 1))
        for operation, runs in figures.items():
            walls = [wall for wall, _ in runs]
            median_run = runs[walls.index(sorted(walls)[len(walls) // 2])]
            wall, results = median_run
            shard_walls = [result[0] for result in results]
            cpu = sum(result[1] for result in results)
            rss = max(result[2] for result in results) / 1024
            one = statistics.median(shard_walls)
            per_shard_mb = size / max(count, 1) / 1e6 if operation in ("convert", "validate") else size / 1e6
            rows.append((operation, count, wall, cpu, rss, one, per_shard_mb / one if one > 0 else 0))
    print("input: %s, %.1f MB; %d slots; median of %d runs" % (args.input, size / 1e6, args.slots, args.runs))
    print("%-9s %6s %9s %9s %9s %12s %14s" % ("operation", "shards", "wall s", "cpu s", "rss MB", "one shard s", "one shard MB/s"))
    for operation, count, wall, cpu, rss, one, throughput in rows:
        print("%-9s %6d %9.3f %9.3f %9.1f %12.3f %14.1f" % (operation, count, wall, cpu, rss, one, throughput))


if __name__ == "__main__":
    main()
