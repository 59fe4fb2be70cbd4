#!/usr/bin/env python3
"""Runs ferry on Apache Spark: one shard of a large file per task.

    spark-submit --master 'local[2]' Examples/spark/ferry_job.py \
        convert|validate INPUT OUTPUT_DIR --shards N [--to FMT] [--kind K]

The driver plans the input (`ferry plan INPUT --shards N`); each task runs
`ferry convert --range START:END --first-record R --first-line L` or
`ferry validate --range … --report-format json` on one shard in a subprocess
(a mapPartitions over one shard per partition). Then:

- convert writes OUTPUT_DIR/part-00000 … part-(N-1), in shard order:
  `cat OUTPUT_DIR/part-*` is what `ferry convert INPUT - --to FMT` writes.
  A shard whose records fail stops the job with that shard's error and
  ferry's exit status, as the one-machine convert would (the first
  failing shard holds the file's first bad record).
- validate writes each shard's json report to OUTPUT_DIR/shards/, combines
  them into OUTPUT_DIR/report.json with `ferry validate --combine` (the
  report `ferry validate INPUT --report-format json` gives), prints the text
  report, and exits with ferry validate's status: 0 valid, 1 invalid,
  2 usage, 3 I/O.

  Each shard's report lists the unique keys it saw (for a duplicate in
  another shard). The combine step needs only the keys that more than
  one shard saw, so the job finds those first, in Spark: a shuffle of
  (field, digest) by key, across the cluster; each task then writes its
  shard's report again with only those keys (OUTPUT_DIR/shared/). The
  driver's combine step so holds the keys the shards share, not every
  key of the file: what one machine cannot hold at 100 GB.

On a cluster only the master URL and the paths change: `ferry` must be on
each worker's PATH (or give --ferry), and INPUT and OUTPUT_DIR on storage
every worker and the driver reach at the same path (NFS, a mounted bucket).
"""

import argparse
import base64
import json
import os
import subprocess
import sys


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Run ferry convert or validate on Spark, a shard per task.")
    parser.add_argument("command", choices=["convert", "validate"])
    parser.add_argument("input")
    parser.add_argument("output_dir")
    parser.add_argument("--shards", type=int, required=True, help="how many shards (and tasks)")
    parser.add_argument("--to", help="convert: the output format (json, jsonl, csv, tsv)")
    parser.add_argument("--kind", choices=["product", "book", "generic"], help="the records' kind")
    parser.add_argument("--compact", action="store_true", help="convert: compact JSON")
    parser.add_argument("--max-errors", help="validate: the cap on errors (as ferry validate)")
    parser.add_argument("--ferry", default=os.environ.get("FERRY", "ferry"), help="the ferry executable")
    return parser.parse_args(argv)


def plan(ferry, source, shards):
    """The plan of the input, made on the driver: one pass over the file."""
    done = subprocess.run([ferry, "plan", source, "--shards", str(shards)], capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        sys.exit(done.returncode)
    return json.loads(done.stdout)


def shard_arguments(shard):
    """The options that read one shard, as a scheduler passes them."""
    return [
        "--range", "%d:%d" % (shard["start"], shard["end"]),
        "--first-record", str(shard["firstRecord"]),
        "--first-line", str(shard["firstLine"]),
    ]


def make_task(args, source, output_dir):
    """What a task runs on its partition: ferry on each shard it holds."""
    ferry, command = args.ferry, args.command
    common = (["--kind", args.kind] if args.kind else [])
    if command == "convert":
        common += (["--to", args.to] if args.to else []) + (["--compact"] if args.compact else [])
    elif args.max_errors:
        common += ["--max-errors", args.max_errors]

    def run(shards):
        for shard in shards:
            index = shard["shard"]
            if command == "convert":
                target = os.path.join(output_dir, "part-%05d" % index)
                line = [ferry, "convert", source, target, "--force", "--quiet"] + shard_arguments(shard) + common
            else:
                target = os.path.join(output_dir, "shards", "report-%05d.json" % index)
                line = [ferry, "validate", source, "--report-format", "json", "--report-file", target, "--force", "--quiet"]
                line += shard_arguments(shard) + common
            done = subprocess.run(line, capture_output=True, text=True)
            yield (index, done.returncode, done.stderr, target)
    return run


KEY_BYTES = 32  # a packed key: digest (high, low), record, byte offset


def packed_keys(text):
    """The packed keys of one field in a shard report (Formats/shards.md),
    each as its 32 bytes: the digest is the first 16."""
    data = base64.b64decode(text)
    return [data[start:start + KEY_BYTES] for start in range(0, len(data), KEY_BYTES)]


def shard_keys(item):
    """The (field, digest) of each key one shard's report lists."""
    _, path = item
    with open(path, encoding="utf-8") as file:
        shard = json.load(file)["shard"]
    for field, text in zip(shard["uniqueFields"], shard["keys"]):
        for key in packed_keys(text):
            yield (field, key[:16])


def keep_shared_keys(spark_context, reports, output_dir):
    """Each report again, with only the keys another shard also saw.

    A shard's report lists a key once (its first record in the shard), so
    a key listed by two reports or more is one the combine step needs; a
    key of one shard can never repeat another's. Counted with a shuffle by
    key; only the shared keys come back to the driver, and are sent to
    the tasks that write the reports again."""
    numbered = spark_context.parallelize(list(enumerate(reports)), len(reports))
    shared = (
        numbered.flatMap(shard_keys)
        .map(lambda key: (key, 1))
        .reduceByKey(lambda a, b: a + b)
        .filter(lambda counted: counted[1] > 1)
        .keys()
        .collect()
    )
    wanted = spark_context.broadcast(set(shared))
    shared_dir = os.path.join(output_dir, "shared")
    os.makedirs(shared_dir, exist_ok=True)

    def rewrite(items):
        for index, path in items:
            with open(path, encoding="utf-8") as file:
                report = json.load(file)
            shard = report["shard"]
            shard["keys"] = [
                base64.b64encode(b"".join(key for key in packed_keys(text) if (field, key[:16]) in wanted.value)).decode()
                for field, text in zip(shard["uniqueFields"], shard["keys"])
            ]
            target = os.path.join(shared_dir, os.path.basename(path))
            with open(target, "w", encoding="utf-8") as file:
                json.dump(report, file)
            yield (index, target)

    return [target for _, target in sorted(numbered.mapPartitions(rewrite).collect())]


def main(argv):
    args = parse_arguments(argv)
    from pyspark import SparkConf
    from pyspark.sql import SparkSession

    # As given, so the reports name the file as ferry validate does; on a
    # cluster, give a path every worker reads (an absolute one).
    source = args.input
    output_dir = os.path.abspath(args.output_dir)
    os.makedirs(os.path.join(output_dir, "shards") if args.command == "validate" else output_dir, exist_ok=True)
    the_plan = plan(args.ferry, source, args.shards)
    shards = the_plan["shards"]

    conf = SparkConf().setAppName("ferry %s %s" % (args.command, os.path.basename(source)))
    conf.setIfMissing("spark.master", "local[2]")
    spark = SparkSession.builder.config(conf=conf).getOrCreate()
    try:
        # One shard per partition, so one ferry per task.
        rdd = spark.sparkContext.parallelize(shards, len(shards))
        results = sorted(rdd.mapPartitions(make_task(args, source, output_dir)).collect())
        failed = [result for result in results if result[1] != 0 and not (args.command == "validate" and result[1] == 1)]
        if failed:
            index, status, stderr, _ = failed[0]
            sys.stderr.write(stderr)
            if args.command == "convert":
                for result in results:
                    if os.path.exists(result[3]):
                        os.remove(result[3])
            return status
        if args.command == "convert":
            return 0
        reports = keep_shared_keys(spark.sparkContext, [result[3] for result in results], output_dir)
    finally:
        spark.stop()

    combined = os.path.join(output_dir, "report.json")
    limit = ["--max-errors", args.max_errors] if args.max_errors else []
    done = subprocess.run(
        [args.ferry, "validate", "--combine"] + reports + ["--report-format", "json", "--report-file", combined, "--force", "--quiet"]
        + limit)
    if done.returncode not in (0, 1):
        return done.returncode
    text = subprocess.run([args.ferry, "validate", "--combine"] + reports + limit)
    return text.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
