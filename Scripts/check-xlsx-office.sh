#!/usr/bin/env bash
# Opens the workbooks Ferry writes in LibreOffice, and checks every part of
# them against the ECMA-376 schemas.
#
#   Scripts/check-xlsx-office.sh [FERRY]
#
# FERRY is a ferry binary; without it, the debug one is built
# (`swift build --product ferry`). Needs `soffice` (Debian:
# apt-get install --no-install-recommends libreoffice-calc-nogui) and
# `xmllint` (libxml2-utils); python3 with its standard library only.
#
# For each input below, ferry writes NAME.xlsx, and NAME.expected.jsonl as the records
# it had (the expected values). Then:
#   1. Scripts/validate-xlsx-schema.py checks every XML part of every
#      workbook against the schemas (the nearest check to Excel's repair
#      prompt that runs here);
#   2. LibreOffice converts each workbook to CSV (`soffice --headless
#      --convert-to csv`) and, apart, to .xlsx again (a round trip through
#      its own writer); Python's csv module reads the CSV, and ferry reads
#      the round-tripped workbook, and both must hold the expected values;
#   3. what LibreOffice says is checked: headless, it shows no dialog and
#      exits 0 even when a file cannot be loaded, so a missing or empty
#      output, or any line on its standard error other than the known
#      javaldx notice, is a failure.
#
# The inputs: Examples/products.json and books.json; Examples/Products (a
# legacy archive whose photos are bytes: written as data: URIs, with
# xlsx.photoAsDataURI); a plist of dates (midnight, with a time, before
# 1900), bools, integers past 2^32, doubles, text with non-ASCII, XML
# specials and edge spaces, text over a cell's 32,767 characters, nested
# values and a field that first appears late; a CSV of prices typed as +3,
# .5, 1. and 00012; 0 records; 1,024 columns.
set -Eeuo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STARTED=$SECONDS
FERRY=${1:-}
if [[ -z $FERRY ]]; then
    (cd "$ROOT" && swift build --product ferry >/dev/null)
    FERRY="$ROOT/.build/debug/ferry"
fi
command -v soffice >/dev/null || { echo "soffice not found: apt-get install libreoffice-calc-nogui" >&2; exit 2; }
command -v xmllint >/dev/null || { echo "xmllint not found: apt-get install libxml2-utils" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# LibreOffice's profile, apart from the user's and made afresh.
PROFILE="file://$WORK/profile"
cd "$WORK"

# MARK: - Inputs

python3 - <<'PY'
import datetime, json, plistlib
day = datetime.datetime(2024, 1, 15)
records = []
for i in range(4):
    record = {
        "label": [" Café — 中文 😀 ", "Lamp & <Shade> \"Ø\"", "tab\there\nnew line", "plain"][i],
        "when": [day, day.replace(hour=13, minute=45, second=30), datetime.datetime(1899, 12, 1), datetime.datetime(9999, 12, 31)][i],
        "flag": i % 2 == 0,
        "whole": [0, -7, 4_294_967_296, 123_456_789_012_345][i],
        "real": [19.99, 0.1, -1234.5, 1e-7][i],
        "text": "x" * 40_000 if i == 1 else "é" * 3 + "short",
        "nested": [1, {"a": "b"}] if i == 2 else "none",
    }
    if i == 3:
        record["late"] = "a field first seen in the last record"
    records.append(record)
plistlib.dump(records, open("special.plist", "wb"), fmt=plistlib.FMT_XML)
with open("wide.jsonl", "w") as out:
    for row in range(3):
        out.write(json.dumps({f"c{j}": (row * 1024 + j) * 0.5 if j % 3 else f"r{row}c{j}" for j in range(1024)}) + "\n")
open("empty.json", "w").write("[]\n")
# Prices as people type them: a plus, leading zeros, a bare point.
open("numbers.csv", "w").write("name,price\na,+3\nb,.5\nc,1.\nd,00012\ne,-0\nf,299.00\n")
PY
cp "$ROOT/Examples/products.json" "$ROOT/Examples/books.json" .
INPUTS=(products.json books.json "$ROOT/Examples/Products" special.plist numbers.csv empty.json wide.jsonl)
NAMES=()
for input in "${INPUTS[@]}"; do
    name=$(basename "$input")
    name=${name%%.*}
    [[ $name == Products ]] && name=legacy
    NAMES+=("$name")
    "$FERRY" convert "$input" "$name.xlsx" --quiet 2>>ferry-warnings.txt || { cat ferry-warnings.txt; exit 1; }
    "$FERRY" convert "$input" "$name.expected.jsonl" --quiet 2>/dev/null
done
echo "ferry wrote: ${NAMES[*]/%/.xlsx}; its warnings:"
sed 's/^/    /' ferry-warnings.txt

# MARK: - Schemas

echo "== ECMA-376 schemas (Scripts/validate-xlsx-schema.py)"
python3 "$ROOT/Scripts/validate-xlsx-schema.py" "${NAMES[@]/%/.xlsx}" >schema.json || {
    cat schema.json
    echo "FAILED: the parts above break the schemas" >&2
    exit 1
}
python3 -c 'import json; print("    %d parts valid" % len(json.load(open("schema.json"))["parts"]))'

# MARK: - LibreOffice

# The CSV filter's options: comma, double quote, UTF-8, from line 1, …,
# values rather than as shown (9th), every sheet (12th, -1).
CSV='csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1'
soffice_run() {
    local out=$1
    shift
    local started=$SECONDS status=0
    soffice -env:UserInstallation="$PROFILE" --headless --norestore --convert-to "$@" --outdir "$out" \
        "${NAMES[@]/%/.xlsx}" >"$out.stdout" 2>"$out.stderr" || status=$?
    echo "    soffice --convert-to ${1%%:*}: exit $status in $((SECONDS - started)) s"
    if ((status != 0)) || grep -v '^Warning: failed to launch javaldx' "$out.stderr"; then
        echo "FAILED: soffice --convert-to ${1%%:*} exited $status or complained (above)" >&2
        exit 1
    fi
}
echo "== LibreOffice $(soffice --version | head -n 1)"
soffice_run csv "$CSV"
soffice_run roundtrip xlsx

# Ferry reads LibreOffice's own workbooks back.
for name in "${NAMES[@]}"; do
    [[ -s roundtrip/$name.xlsx ]] || { echo "FAILED: LibreOffice wrote no roundtrip/$name.xlsx" >&2; exit 1; }
    "$FERRY" convert "roundtrip/$name.xlsx" "roundtrip/$name.jsonl" --quiet
done

# MARK: - Values

python3 - "${NAMES[@]}" <<'PY'
import csv, datetime, glob, json, math, re, sys

ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z")
DROPPED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def cut(text):
    """Ferry's cell: characters XML cannot hold left out, at most 32,767 UTF-16 units."""
    text = DROPPED.sub("", text)
    units, end = 0, 0
    for end, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > 32767:
            return text[:end]
    return text


def shown(value):
    """Forms a date takes: Ferry's ISO text, LibreOffice's yyyy-mm-dd (hh:mm:ss), Ferry's read-back."""
    match = ISO.fullmatch(value)
    if not match or not 1900 <= int(match[1]) <= 9999:
        return {value}
    date, time = value[:10], value[11:19]
    return {value, date + (" " + time if time != "00:00:00" else ""), date if time == "00:00:00" else date + "T" + time}


def agrees(expected, found):
    """Whether a cell read back (text from CSV, or a JSON value) holds `expected`."""
    if expected is None:
        return found in (None, "")
    if isinstance(expected, bool):
        return found in (expected, "TRUE" if expected else "FALSE")
    if isinstance(expected, (int, float)):
        try:
            return not isinstance(found, bool) and math.isclose(float(found), expected, rel_tol=1e-15, abs_tol=0)
        except (TypeError, ValueError):
            return False
    if isinstance(expected, (list, dict)):
        return found == json.dumps(expected, separators=(",", ":"), ensure_ascii=False)
    return found in shown(cut(expected))


failures = 0
for name in sys.argv[1:]:
    records = [json.loads(line) for line in open(f"{name}.expected.jsonl", encoding="utf-8")]
    columns = list(dict.fromkeys(field for record in records for field in record))
    checks = {}
    sheets = glob.glob(f"csv/{name}-*.csv")
    if len(sheets) != 1:
        print(f"    {name}: LibreOffice wrote {sheets}, one CSV expected")
        failures += 1
        continue
    with open(sheets[0], newline="", encoding="utf-8") as file:
        rows = [row for row in csv.reader(file) if any(row)]
    checks["csv"] = ([columns] if columns else []) + [[record.get(c) for c in columns] for record in records], rows
    back = [json.loads(line) for line in open(f"roundtrip/{name}.jsonl", encoding="utf-8")]
    checks["roundtrip"] = [[record.get(c) for c in columns] for record in records], [[r.get(c) for c in columns] for r in back]
    for check, (want, got) in checks.items():
        problems = []
        if len(want) != len(got):
            problems.append(f"{len(got)} rows, {len(want)} expected")
        for index, (want_row, got_row) in enumerate(zip(want, got)):
            got_row = list(got_row) + [None] * (len(want_row) - len(got_row))
            for column, (a, b) in enumerate(zip(want_row, got_row)):
                if not agrees(a, b):
                    problems.append(f"row {index + 1}, column {columns[column] if column < len(columns) else column}: "
                                    f"{str(a)[:60]!r} expected, {str(b)[:60]!r} read")
        cells = sum(len(row) for row in want)
        print(f"    {name} ({check}): {len(want)} rows, {cells} cells: {'ok' if not problems else 'FAILED'}")
        for problem in problems[:10]:
            print(f"        {problem}")
        failures += bool(problems)
sys.exit(1 if failures else 0)
PY
echo "all checks passed in $((SECONDS - STARTED)) s"
