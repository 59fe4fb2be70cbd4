#!/usr/bin/env python3
"""Convert with DuckDB or Polars, the engines a user would reach for, as
Scripts/bench.sh times them beside Ferry.

    bench-engines.py duckdb|polars csv2jsonl|csv2json|tsv2jsonl|csv2jsonl-noheader|json2csv IN OUT

Each call does what a user would type: read the whole input with the
engine's own reader (types inferred, a header row, a UTF-8 byte order mark
and CRLF line ends handled by the engine) and write the output with its own
writer. DuckDB runs on every core it finds; Polars too.
"""

import sys


def duckdb_convert(mode, source, target):
    import duckdb

    quoted = lambda path: "'" + path.replace("'", "''") + "'"
    if mode in ("csv2jsonl", "csv2json", "tsv2jsonl", "csv2jsonl-noheader"):
        delimiter = "\t" if mode == "tsv2jsonl" else ","
        quote = "''" if mode == "tsv2jsonl" else quoted('"')
        header = "false" if mode == "csv2jsonl-noheader" else "true"
        read = f"read_csv({quoted(source)}, header = {header}, delim = {quoted(delimiter)}, quote = {quote})"
        array = "true" if mode == "csv2json" else "false"
        duckdb.sql(f"COPY (SELECT * FROM {read}) TO {quoted(target)} (FORMAT json, ARRAY {array})")
    elif mode == "json2csv":
        duckdb.sql(f"COPY (SELECT * FROM read_json({quoted(source)})) TO {quoted(target)} (FORMAT csv, HEADER)")
    else:
        raise SystemExit(f"unknown mode {mode}")


def polars_convert(mode, source, target):
    import polars as pl

    if mode in ("csv2jsonl", "csv2json", "tsv2jsonl", "csv2jsonl-noheader"):
        tsv = mode == "tsv2jsonl"
        # TSV has no quoting: a quote is a character like any other.
        frame = pl.read_csv(
            source, separator="\t" if tsv else ",", quote_char=None if tsv else "\"",
            has_header=mode != "csv2jsonl-noheader")
        if mode == "csv2json":
            frame.write_json(target)
        else:
            frame.write_ndjson(target)
    elif mode == "json2csv":
        pl.read_json(source).write_csv(target)
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    engine, mode, source, target = sys.argv[1:5]
    {"duckdb": duckdb_convert, "polars": polars_convert}[engine](mode, source, target)
