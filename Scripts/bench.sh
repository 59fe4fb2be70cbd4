#!/usr/bin/env bash
# Benchmark Ferry against Miller, jq, Python, plistutil and the Python
# NSKeyedArchiver decoders on the generated products datasets.
#
#   Scripts/bench.sh                         # builds ferry (release), 1M products, 3 runs each
#   COUNT=20000 RUNS=1 Scripts/bench.sh      # quick smoke run
#   FERRY=/path/to/ferry Scripts/bench.sh    # use an existing binary, skip the build
#   ONLY='plist|archive' Scripts/bench.sh    # only the operations whose name matches
#
# Environment: COUNT (default 1000000), ARCHIVE_COUNT (products in the keyed
# archive, default COUNT / 10), RUNS (default 3), WORK (default
# ${TMPDIR:-/tmp}/ferry-bench), FERRY (skip the build and use this binary),
# ONLY (a regex of operation names).
#
# Every case runs RUNS times through Scripts/bench-run.py, which times the
# command alone (spawn to reap, no shell or /usr/bin/time start counted) and
# reads its peak RSS and CPU time from wait4(2), the tools of an operation
# taking turns (one run each per round); the table shows the median
# wall time, input MB/s at that median, the median CPU time (user + system)
# and the highest peak RSS of the runs. CPU time is the steadier figure on a
# busy machine: other jobs stretch wall time, much less CPU time.
# Tools are compared within one run only: timings on these machines drift by
# about ±30% from day to day (see ../shared/ANCHORS.md).
#
# Operations: JSON -> JSONL and JSONL -> JSON (ferry, mlr, jq); ferry plan
# of the CSV in 4 shards beside one ferry convert of it; CSV -> JSON,
# JSON -> CSV and CSV -> JSONL (ferry, mlr, and Python's csv + json through
# Scripts/bench-python.py); binary plist -> JSON (ferry, Python's plistlib +
# json), binary plist -> XML plist (ferry --to plist-xml when this build has
# it, plistutil), and NSKeyedArchiver archive -> JSON (ferry, bpylist2 and
# NSKeyedUnArchiver through Scripts/bench-archive.py, in a venv under WORK
# made with pip on first use); JSONL -> JSONL.gz (ferry --jobs 1 against
# gzip -6, ferry --jobs 2 against pigz -6 -p2) and JSONL.gz -> JSONL (ferry,
# gzip -dc, pigz -dc). The plists come from Scripts/gen-plists.py.
# The CSV conversions also run on the shapes users' files have (CRLF as
# Python's csv module and Excel write it, CRLF after a byte order mark, and
# TSV), and every CSV and JSON -> CSV operation also times DuckDB and Polars
# (Scripts/bench-engines.py, in the same venv), the engines a user would pick.
# Validation: ferry on the JSON Lines, the CSV and its CRLF copy against
# orjson + jsonschema-rs (Scripts/bench-validate.py), and frictionless; and
# on files whose photo references name files that are not there, beside the
# same files with null photos (`ONLY=photos Scripts/bench.sh`).
# Ferry runs twice per operation (`ferry_cases`): `ferry` writes standard
# output into the output file, as every peer does, and the ratios and
# targets are taken from it; `ferry-file` names the output file itself, so
# it also pays for syncing it to the disk before the rename (fsync waits for
# the disk: about 0.1 s for 130 MB here on a slow day).
# Every ferry row gets a ratio line against each other tool of its operation,
# and the outputs of the plist and archive conversions are compared by value
# with Python's (Scripts/bench-python.py same).
#
# To add an operation: make its input with `dataset <format>`, then
# add one bench_case line per tool in the OPERATIONS section at the bottom.
set -euo pipefail
export LC_NUMERIC=C  # decimal points in printf/awk, whatever the user's locale

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
COUNT=${COUNT:-1000000}
RUNS=${RUNS:-3}
WORK=${WORK:-${TMPDIR:-/tmp}/ferry-bench}
OUT="$WORK/out"
ARCHIVE_COUNT=${ARCHIVE_COUNT:-$((COUNT >= 10 ? COUNT / 10 : 1))}
GEN="$ROOT/Scripts/gen-products.py"
GEN_PLISTS="$ROOT/Scripts/gen-plists.py"
PYBENCH="$ROOT/Scripts/bench-python.py"
RUNNER="$ROOT/Scripts/bench-run.py"
ARCHIVE_BENCH="$ROOT/Scripts/bench-archive.py"
VALIDATE_BENCH="$ROOT/Scripts/bench-validate.py"
ENGINES_BENCH="$ROOT/Scripts/bench-engines.py"
VENV="$WORK/venv"
TARGET_RSS_MB=64  # streaming conversions stay under this peak RSS

# How many times faster than peer TOOL ferry must be in operation OP
# (../shared/ANCHORS.md): target_ratio TOOL OP. Peers not named here have no
# target. For CSV -> JSON(L), 5x the faster engine is 5x each of them.
target_ratio() {
    case $1 in
        mlr | plistlib) echo 20 ;;
        jsonschema-rs) echo 10 ;;
        bpylist2) echo 30 ;;
        gzip | pigz) echo 1 ;;
        # ferry plan reads a file in under a third of one conversion's time.
        convert) [[ $2 == plan* ]] && echo 3 || echo 0 ;;
        duckdb | polars)
            case $2 in
                *"-> JSON"*) echo 5 ;;
                "JSON -> CSV") [[ $1 == duckdb ]] && echo 4 || echo 0 ;;
                *) echo 0 ;;
            esac ;;
        *) echo 0 ;;
    esac
}

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'bench.sh: error: %s\n' "$*" >&2; exit 1; }

[[ $COUNT =~ ^[0-9]+$ && $COUNT -gt 0 ]] || die "COUNT must be a positive integer (got '$COUNT')"
[[ $RUNS =~ ^[0-9]+$ && $RUNS -gt 0 ]] || die "RUNS must be a positive integer (got '$RUNS')"
[[ $ARCHIVE_COUNT =~ ^[0-9]+$ && $ARCHIVE_COUNT -gt 0 ]] || die "ARCHIVE_COUNT must be a positive integer (got '$ARCHIVE_COUNT')"

# MARK: - Tools

# Install mlr, jq, python3, pigz, gzip and plistutil with apt, only if one of them is missing.
ensure_tools() {
    local missing=()
    command -v mlr >/dev/null || missing+=(miller)
    command -v jq >/dev/null || missing+=(jq)
    command -v python3 >/dev/null || missing+=(python3)
    command -v pigz >/dev/null || missing+=(pigz)
    command -v gzip >/dev/null || missing+=(gzip)
    command -v plistutil >/dev/null || missing+=(libplist-utils)
    ((${#missing[@]} == 0)) && return
    say "installing ${missing[*]} with apt"
    local sudo=()
    if ((EUID != 0)); then
        command -v sudo >/dev/null || die "need root or sudo to install: ${missing[*]}"
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Build ferry in release unless FERRY points at a binary already.
ensure_ferry() {
    if [[ -n ${FERRY:-} ]]; then
        [[ -x $FERRY ]] || die "FERRY=$FERRY is not an executable file"
        return
    fi
    command -v swift >/dev/null || die "swift not found; install it or set FERRY=/path/to/ferry"
    [[ -f $ROOT/Package.swift ]] || die "no Package.swift in $ROOT"
    say "building ferry (release, static, as the README installs it)"
    (cd "$ROOT" && swift build -c release --product ferry --static-swift-stdlib -Xswiftc -use-ld=lld) >&2 ||
        die "swift build failed"
    FERRY="$ROOT/.build/release/ferry"
}

# ensure_pip "IMPORTS" PACKAGE...: make $VENV (once) and pip-install the
# packages into it unless Python can already import IMPORTS there. Fails
# quietly when pip cannot install them; their rows are then left out.
ensure_pip() {
    local imports=$1 python="$VENV/bin/python"
    shift
    if [[ -x $python ]] && "$python" -c "import $imports" 2>/dev/null; then
        return 0
    fi
    say "installing $* with pip in $VENV"
    { [[ -x $python ]] || python3 -m venv "$VENV"; } >&2 &&
        "$python" -m pip install -q "$@" >&2
}

# The Python archive decoders, the validation peers, and the engines users
# pick for CSV and JSON.
ensure_venv() { ensure_pip 'bpylist2, NSKeyedUnArchiver' bpylist2 NSKeyedUnArchiver; }
ensure_validate_venv() { ensure_pip 'orjson, jsonschema_rs, frictionless' orjson jsonschema-rs frictionless; }
ensure_engines_venv() { ensure_pip 'duckdb, polars' duckdb polars; }

# MARK: - Data

# Print the path of the COUNT-product dataset in FORMAT (json, jsonl, csv),
# generating it first unless it already exists and is newer than the generator.
# PHOTOS (optional) is gen-products.py's --photos: folder (the default),
# missing or null.
dataset() {
    local format=$1 photos=${2:-folder} file="$WORK/products-$COUNT.$1"
    [[ $photos == folder ]] || file="$WORK/products-$COUNT-photos-$photos.$format"
    if [[ ! -s $file || $GEN -nt $file ]]; then
        say "generating $COUNT products as $format (photos: $photos)"
        python3 "$GEN" --count "$COUNT" --format "$format" --photos "$photos" --out "$file.tmp"
        mv "$file.tmp" "$file"
    fi
    printf '%s\n' "$file"
}

# Print the path of the binary plist of COUNT products (plist) or the keyed
# archive of ARCHIVE_COUNT products (archive), made with Scripts/gen-plists.py.
plist_dataset() {
    local what=$1 count file
    count=$([[ $what == plist ]] && echo "$COUNT" || echo "$ARCHIVE_COUNT")
    file="$WORK/products-$count.$what"
    if [[ ! -s $file || $GEN_PLISTS -nt $file || $GEN -nt $file ]]; then
        say "generating $count products as a binary $what"
        python3 "$GEN_PLISTS" "$what" --count "$count" --out "$file.tmp"
        mv "$file.tmp" "$file"
    fi
    printf '%s\n' "$file"
}

# Print the path of a copy of the CSV dataset in another shape: crlf (as
# Python's csv module and Excel write it: CRLF, quoted where needed), bom
# (the same after a UTF-8 byte order mark, Excel's "CSV UTF-8") or tsv.
csv_variant() {
    local shape=$1 source file
    source=$(dataset csv)
    file="$WORK/products-$COUNT-$shape.$([[ $shape == tsv ]] && echo tsv || echo csv)"
    if [[ ! -s $file || $source -nt $file ]]; then
        say "making the $shape copy of the CSV"
        python3 - "$shape" "$source" "$file.tmp" <<'PY'
import csv, sys
shape, source, target = sys.argv[1:4]
with open(source, newline="", encoding="utf-8") as rows, open(target, "w", newline="", encoding="utf-8") as out:
    if shape == "bom":
        out.write("\ufeff")
    if shape == "noheader":
        # The same rows without the header line (ferry --no-header).
        rows = csv.reader(rows)
        next(rows, None)
        csv.writer(out, lineterminator="\n").writerows(rows)
    elif shape == "tsv":
        # TSV holds no tabs or line breaks in a field: they become spaces.
        for row in csv.reader(rows):
            out.write("\t".join(f.replace("\t", " ").replace("\r", " ").replace("\n", " ") for f in row) + "\n")
    else:
        csv.writer(out).writerows(csv.reader(rows))
PY
        mv "$file.tmp" "$file"
    fi
    printf '%s\n' "$file"
}

# MARK: - Measuring

# Results, one entry per case, in the order the cases ran.
R_OP=() R_TOOL=() R_SECS=() R_MBS=() R_RSS=() R_CPU=()

# Median of the numbers given as arguments.
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_case "<operation>" <tool> <input-file> [-o <stdout-file>] -- <command...>
#
# Adds a tool to the operation. The tools of one operation run in rounds,
# one run of each per round, RUNS rounds (`run_pending`, called when the next
# operation starts, before outputs are compared and before the report): a
# busy spell on the host then slows every tool of the round, not the runs of
# one tool, and the ratios stay steadier than the seconds. Its stdout goes to
# <stdout-file> (default /dev/null), its stderr to $OUT/<tool>.err. A
# failing command is reported as FAIL in the table and the benchmark carries
# on.
P_OP= P_TOOL=() P_INPUT=() P_STDOUT=() P_COMMAND=()
bench_case() {
    local op=$1 tool=$2 input=$3 stdout=/dev/null
    shift 3
    if [[ ${1:-} == -o ]]; then stdout=$2; shift 2; fi
    [[ ${1:-} == -- ]] || die "bench_case: expected -- before the command"
    shift
    [[ $op == "$P_OP" ]] || run_pending
    P_OP=$op
    P_TOOL+=("$tool") P_INPUT+=("$input") P_STDOUT+=("$stdout")
    P_COMMAND+=("$(printf '%q ' "$@")")
}

# Runs the pending operation's tools in rounds and records each one's
# medians.
run_pending() {
    local count=${#P_TOOL[@]}
    ((count > 0)) || return 0
    local -A secs=() rss=() cpu=() failed=() made=()
    local run i tool timing
    for ((run = 1; run <= RUNS; run++)); do
        for ((i = 0; i < count; i++)); do
            tool=${P_TOOL[i]}
            [[ -z ${failed[$i]:-} ]] || continue
            timing="$OUT/$tool.time"
            printf '    %-18s %-10s run %d/%d ... ' "$P_OP" "$tool" "$run" "$RUNS" >&2
            # Each run starts alike, untimed: the files this tool's last run
            # wrote are removed (replacing them cost Ferry's rename and the
            # peers' truncation more or less, as they had reached the disk
            # or not), and what other runs wrote goes to disk (written back
            # during a run, it slowed whichever tool came next).
            if [[ -n ${made[$i]:-} ]]; then
                while IFS= read -r file; do rm -f -- "$file"; done <<<"${made[$i]}"
            fi
            sync
            touch "$OUT/.before-run"
            if ! eval "python3 \"\$RUNNER\" \"\$timing\" ${P_COMMAND[i]}" >"${P_STDOUT[i]}" 2>"$OUT/$tool.err"; then
                printf 'FAILED\n' >&2
                sed 's/^/      | /' "$OUT/$tool.err" | tail -n 5 >&2
                failed[$i]=1
                continue
            fi
            made[$i]=$(find "$OUT" -type f -newer "$OUT/.before-run" ! -name '*.time' ! -name '*.err' ! -name .before-run)
            # Wall seconds, peak RSS (KiB) and CPU time (user + system), as
            # Scripts/bench-run.py wrote them.
            secs[$i]+="$(awk '{ printf "%.4f", $1 }' "$timing") "
            rss[$i]+="$(awk '{ print $2 }' "$timing") "
            cpu[$i]+="$(awk '{ printf "%.3f", $3 + $4 }' "$timing") "
            printf '%ss\n' "$(awk '{ printf "%.4f", $1 }' "$timing")" >&2
        done
    done
    local s mb max_rss
    for ((i = 0; i < count; i++)); do
        if [[ -n ${failed[$i]:-} ]]; then
            R_OP+=("$P_OP") R_TOOL+=("${P_TOOL[i]}") R_SECS+=(FAIL) R_MBS+=(-) R_RSS+=(-) R_CPU+=(-)
            continue
        fi
        # shellcheck disable=SC2086  # the lists are space-separated numbers
        s=$(median ${secs[$i]})
        mb=$(awk -v bytes="$(stat -c %s "${P_INPUT[i]}")" -v s="$s" 'BEGIN { printf "%.1f", bytes / 1e6 / (s > 0 ? s : 0.001) }')
        # shellcheck disable=SC2086
        max_rss=$(printf '%s\n' ${rss[$i]} | sort -n | tail -n 1)
        R_OP+=("$P_OP") R_TOOL+=("${P_TOOL[i]}") R_SECS+=("$s") R_MBS+=("$mb")
        R_RSS+=("$(awk -v k="$max_rss" 'BEGIN { printf "%.1f", k / 1024 }')")
        # shellcheck disable=SC2086
        R_CPU+=("$(median ${cpu[$i]})")
    done
    P_OP= P_TOOL=() P_INPUT=() P_STDOUT=() P_COMMAND=()
}

# ferry_cases "<operation>" <input> <output> <ferry options...>
#
# Adds Ferry twice: as `ferry`, writing standard output into <output> the
# way every peer here writes its output (the shell's redirection, nothing
# synced), which the ratios and targets compare; and as `ferry-file`,
# naming its output (file-<output's name>, beside it) the way `ferry
# convert IN OUT` does: a temporary file, synced to the disk with fsync,
# renamed over the destination. The difference is the cost of that
# durability, which no peer here pays.
ferry_cases() {
    local op=$1 input=$2 output=$3
    shift 3
    bench_case "$op" ferry "$input" -o "$output" -- "$FERRY" convert "$input" - "$@" --quiet
    bench_case "$op" ferry-file "$input" -- "$FERRY" convert "$input" "${output%/*}/file-${output##*/}" "$@" --force --quiet
}

# MARK: - Report

report() {
    run_pending
    local i j line
    local format='%-35s %-17s %9s %9s %9s %12s\n'
    printf "\n$format" operation tool seconds "in MB/s" "cpu s" "peak RSS MB"
    printf "$format" --------------------------- ----------------- --------- --------- --------- ------------
    for i in "${!R_OP[@]}"; do
        printf "$format" "${R_OP[i]}" "${R_TOOL[i]}" "${R_SECS[i]}" "${R_MBS[i]}" "${R_CPU[i]}" "${R_RSS[i]}"
    done

    printf '\nSpeed ratios (peer seconds / ferry seconds, wall and CPU; same run). The targets are\n'
    printf 'checked on `ferry`, which writes its output as the peers do; `ferry-file` also syncs\n'
    printf 'its own output file to the disk before renaming it into place:\n'
    for i in "${!R_OP[@]}"; do
        [[ ${R_TOOL[i]} == ferry* ]] || continue
        line="  ${R_OP[i]}, ${R_TOOL[i]}:"
        for j in "${!R_OP[@]}"; do
            [[ ${R_OP[j]} == "${R_OP[i]}" && ${R_TOOL[j]} != ferry* ]] || continue
            if [[ ${R_SECS[i]} == FAIL || ${R_SECS[j]} == FAIL ]]; then
                line+="  ferry/${R_TOOL[j]} = n/a"
            else
                line+=$(awk -v f="${R_SECS[i]}" -v p="${R_SECS[j]}" -v fc="${R_CPU[i]}" -v pc="${R_CPU[j]}" \
                    -v t="${R_TOOL[j]}" -v goal="$([[ ${R_TOOL[i]} != ferry-file ]] && target_ratio "${R_TOOL[j]}" "${R_OP[i]}" || echo 0)" \
                    'BEGIN { r = p / (f > 0 ? f : 0.001)
                             printf "  ferry/%s = %.1fx", t, r
                             # CPU times have 10 ms resolution: no ratio below that.
                             if (fc >= 0.01) printf " (cpu %.1fx)", pc / fc; else printf " (cpu n/a)"
                             if (goal > 0) printf (r >= goal ? " (ok, target %dx)" : " (below target %dx)"), goal }')
            fi
        done
        # Whole-file formats (plists, archives) are read whole: no RSS
        # target; targets are checked on the `ferry` row only.
        if [[ ${R_RSS[i]} != - ]]; then
            line+=$(awk -v m="${R_RSS[i]}" -v goal="$([[ ${R_OP[i]} == validate* ]] && echo 128 || echo "$TARGET_RSS_MB")" \
                -v untargeted="$([[ ${R_OP[i]} =~ plist|archive || ${R_TOOL[i]} == ferry-file ]] && echo 1)" \
                'BEGIN { printf "  ferry RSS %s MB%s", m, untargeted ? "" : (m < goal ? " (ok)" : " (over target)") }')
        fi
        printf '%s\n' "$line"
    done
    # A file whose photos are not there, against the same file with null photos.
    for i in "${!R_OP[@]}"; do
        [[ ${R_OP[i]} == *photos* && ${R_TOOL[i]} =~ ^ferry-(jsonl|csv)-(skip|check|check-all)$ && ${R_SECS[i]} != FAIL ]] || continue
        for j in "${!R_OP[@]}"; do
            [[ ${R_OP[j]} == "${R_OP[i]}" && ${R_TOOL[j]} == "ferry-${BASH_REMATCH[1]}-null" && ${R_SECS[j]} != FAIL ]] || continue
            awk -v t="${R_TOOL[i]}" -v n="${R_TOOL[j]}" -v f="${R_SECS[i]}" -v z="${R_SECS[j]}" -v fc="${R_CPU[i]}" -v zc="${R_CPU[j]}" \
                'BEGIN { r = f / (z > 0 ? z : 0.001)
                         printf "  %s, %s: %.2fx the time of %s (cpu %.2fx)%s\n", "photos not there", t, r, n,
                             fc / (zc > 0 ? zc : 0.001), (r <= 1.5 ? " (ok, target <= 1.5x)" : " (over target 1.5x)") }'
        done
    done
    printf '\nTargets (../shared/ANCHORS.md): ferry >= 20x mlr on every conversion and peak RSS < %d MB\n' "$TARGET_RSS_MB"
    printf 'when streaming; >= 20x plistlib on binary plists; >= 30x bpylist2 on keyed archives;\n'
    printf 'gzip: at least the speed of gzip with one job and of pigz -p2 with two (1x);\n'
    printf 'validation: >= 10x orjson + jsonschema-rs on the same records, peak RSS < 128 MB.\n'
    if ((COUNT < 1000000)); then
        printf 'Note: COUNT=%d; the targets are stated for 1,000,000 products (and a 100,000-product archive).\n' "$COUNT"
    fi
    if ((${#CHECKS[@]})); then
        printf '\nOutput checks (values compared with Python'"'"'s):\n'
        printf '  %s\n' "${CHECKS[@]}"
    fi
}

# Compares two outputs by value (JSON or plist, by extension) with
# Scripts/bench-python.py, and records the verdict for the report.
CHECKS=()
check_same() {
    run_pending
    local label=$1 a=$2 b=$3 verdict
    [[ -s $a && -s $b ]] || { CHECKS+=("$label: skipped (an output is missing)"); return 0; }
    verdict=$(python3 "$PYBENCH" same "$a" "$b" 2>&1) || true
    CHECKS+=("$label: ${verdict//$'\n'/; }")
}

# engine_cases OP MODE INPUT EXT: a DuckDB and a Polars case for OP
# (Scripts/bench-engines.py), when pip could install them.
engine_cases() {
    local op=$1 mode=$2 input=$3 ext=$4 engine
    ensure_engines_venv || { say "pip could not install duckdb and polars: $op leaves them out"; return 0; }
    for engine in duckdb polars; do
        bench_case "$op" "$engine" "$input" -- "$VENV/bin/python" "$ENGINES_BENCH" "$engine" "$mode" "$input" "$OUT/$engine-$mode.$ext"
    done
}

# MARK: - Operations

ensure_tools
ensure_ferry
rm -rf "$OUT" && mkdir -p "$WORK" "$OUT"  # no stale outputs from an earlier run
say "ferry: $FERRY; mlr: $(mlr --version); jq: $(jq --version); $(python3 --version); runs: $RUNS; work dir: $WORK"

# ONLY=regex runs the operations whose name matches (ONLY='gzip' for the gzip cases).
want() { [[ -z ${ONLY:-} || $1 =~ $ONLY ]]; }
want_any() { local op; for op; do want "$op" && return 0; done; return 1; }

# Inputs are made only for the operations that run.
IN_JSON= IN_JSONL= IN_CSV=
want_any "JSON -> JSONL" "JSON -> CSV" && IN_JSON=$(dataset json)
want_any "JSONL -> JSON" "gzip" "validate (1M" && IN_JSONL=$(dataset jsonl)
want_any "CSV -> JSON" "CSV -> JSONL" "CSV, user schema" "plan" "validate (1M" "validate CSV" && IN_CSV=$(dataset csv)

op="JSON -> JSONL"
want "$op" && ferry_cases "$op" "$IN_JSON" "$OUT/ferry.jsonl" --to jsonl
want "$op" && bench_case "$op" mlr "$IN_JSON" -o "$OUT/mlr.jsonl" -- mlr --ijson --ojsonl cat "$IN_JSON"
want "$op" && bench_case "$op" jq "$IN_JSON" -o "$OUT/jq.jsonl" -- jq -c '.[]' "$IN_JSON"

op="JSONL -> JSON"
want "$op" && ferry_cases "$op" "$IN_JSONL" "$OUT/ferry.json" --to json
want "$op" && bench_case "$op" mlr "$IN_JSONL" -o "$OUT/mlr.json" -- mlr --ijsonl --ojson cat "$IN_JSONL"
want "$op" && bench_case "$op" jq "$IN_JSONL" -o "$OUT/jq.json" -- jq -s '.' "$IN_JSONL"

op="CSV -> JSON"
want "$op" && ferry_cases "$op" "$IN_CSV" "$OUT/ferry-csv.json" --to json
want "$op" && bench_case "$op" mlr "$IN_CSV" -o "$OUT/mlr-csv.json" -- mlr --icsv --ojson cat "$IN_CSV"
want "$op" && bench_case "$op" python "$IN_CSV" -- python3 "$PYBENCH" csv2json "$IN_CSV" "$OUT/python-csv.json"
want "$op" && engine_cases "$op" csv2json "$IN_CSV" json

op="JSON -> CSV"
want "$op" && ferry_cases "$op" "$IN_JSON" "$OUT/ferry.csv" --to csv
want "$op" && bench_case "$op" mlr "$IN_JSON" -o "$OUT/mlr.csv" -- mlr --ijson --ocsv cat "$IN_JSON"
want "$op" && bench_case "$op" python "$IN_JSON" -- python3 "$PYBENCH" json2csv "$IN_JSON" "$OUT/python.csv"
want "$op" && engine_cases "$op" json2csv "$IN_JSON" csv

op="CSV -> JSONL"
want "$op" && ferry_cases "$op" "$IN_CSV" "$OUT/ferry-csv.jsonl" --to jsonl
want "$op" && bench_case "$op" mlr "$IN_CSV" -o "$OUT/mlr-csv.jsonl" -- mlr --icsv --ojsonl cat "$IN_CSV"
want "$op" && bench_case "$op" python "$IN_CSV" -- python3 "$PYBENCH" csv2jsonl "$IN_CSV" "$OUT/python-csv.jsonl"
want "$op" && engine_cases "$op" csv2jsonl "$IN_CSV" jsonl

# Shards (Formats/shards.md): `ferry plan` reads the CSV once, quote-aware,
# beside one conversion of it (the `convert` row, whose ratio is the target).
op="plan CSV (4 shards)"
want "$op" && bench_case "$op" ferry-plan "$IN_CSV" -o "$OUT/plan.json" -- "$FERRY" plan "$IN_CSV" --shards 4
want "$op" && bench_case "$op" convert "$IN_CSV" -o "$OUT/ferry-plan.jsonl" -- "$FERRY" convert "$IN_CSV" - --to jsonl --quiet

# The same rows in the shapes users' files have. Most CSV in the wild ends
# its lines with CRLF (RFC 4180, Excel, Python's csv module).
for shape in crlf bom tsv; do
    case $shape in
    crlf) op="CSV (CRLF) -> JSONL" ;;
    bom) op="CSV (BOM, CRLF) -> JSONL" ;;
    tsv) op="TSV -> JSONL" ;;
    esac
    want "$op" || continue
    input=$(csv_variant "$shape")
    ferry_cases "$op" "$input" "$OUT/ferry-$shape.jsonl" --to jsonl
    bench_case "$op" mlr "$input" -o "$OUT/mlr-$shape.jsonl" -- mlr $([[ $shape == tsv ]] && echo --itsv || echo --icsv) --ojsonl cat "$input"
    engine_cases "$op" "$([[ $shape == tsv ]] && echo tsv2jsonl || echo csv2jsonl)" "$input" jsonl
done
op="CSV (CRLF) -> JSON"
if want "$op"; then
    input=$(csv_variant crlf)
    ferry_cases "$op" "$input" "$OUT/ferry-crlf.json" --to json
    engine_cases "$op" csv2json "$input" json
fi

# Without a header (columns column1…N), and typed by a user's schema rather
# than a kind: both on Ferry's accelerated path too. The engines read the
# same file without a header, or the usual one (they take no JSON Schema).
op="CSV (no header) -> JSONL"
if want "$op"; then
    input=$(csv_variant noheader)
    ferry_cases "$op" "$input" "$OUT/ferry-noheader.jsonl" --to jsonl --no-header
    bench_case "$op" mlr "$input" -o "$OUT/mlr-noheader.jsonl" -- mlr --icsv --implicit-csv-header --ojsonl cat "$input"
    engine_cases "$op" csv2jsonl-noheader "$input" jsonl
fi
op="CSV, user schema -> JSONL"
if want "$op"; then
    schema="$WORK/user-products.schema.json"
    cat > "$schema" <<'JSON'
{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["name", "sku"],
 "properties": {"name": {"type": "string", "minLength": 1}, "price": {"type": "number", "minimum": 0},
  "photo": {"type": ["string", "null"]}, "sku": {"type": "string"}, "currency": {"type": "string"}}}
JSON
    ferry_cases "$op" "$IN_CSV" "$OUT/ferry-schema.jsonl" --to jsonl --schema "$schema"
    bench_case "$op" mlr "$IN_CSV" -o "$OUT/mlr-schema.jsonl" -- mlr --icsv --ojsonl cat "$IN_CSV"
    engine_cases "$op" csv2jsonl "$IN_CSV" jsonl
fi

# gzip: Ferry converts and compresses (or inflates and converts) in one pass;
# gzip and pigz only compress. Ferry's --jobs defaults to the number of cores.
IN_JSONL_GZ="$WORK/products-$COUNT.jsonl.gz"
if want "gzip" && [[ ! -s $IN_JSONL_GZ || $IN_JSONL -nt $IN_JSONL_GZ ]]; then
    gzip -6 -c "$IN_JSONL" > "$IN_JSONL_GZ"
fi

# One job against gzip, two against pigz -p2 (the issue's two targets).
op="gzip -6, 1 job (JSONL -> JSONL.gz)"
want "gzip" && ferry_cases "$op" "$IN_JSONL" "$OUT/ferry-j1.jsonl.gz" --to jsonl --gzip --level 6 --jobs 1
want "gzip" && bench_case "$op" gzip "$IN_JSONL" -o "$OUT/gzip.jsonl.gz" -- gzip -6 -c "$IN_JSONL"

op="gzip -6, 2 jobs (JSONL -> JSONL.gz)"
want "gzip" && ferry_cases "$op" "$IN_JSONL" "$OUT/ferry.jsonl.gz" --to jsonl --gzip --level 6 --jobs 2
want "gzip" && bench_case "$op" pigz "$IN_JSONL" -o "$OUT/pigz.jsonl.gz" -- pigz -6 -p2 -c "$IN_JSONL"

op="gunzip (JSONL.gz -> JSONL)"
want "gzip" && ferry_cases "$op" "$IN_JSONL_GZ" "$OUT/ferry-gunzip.jsonl" --to jsonl
want "gzip" && bench_case "$op" gzip "$IN_JSONL_GZ" -o "$OUT/gzip.jsonl" -- gzip -dc "$IN_JSONL_GZ"
want "gzip" && bench_case "$op" pigz "$IN_JSONL_GZ" -o "$OUT/pigz.jsonl" -- pigz -dc "$IN_JSONL_GZ"

# Plists: binary plists of COUNT product dicts (no null: a missing photo is a
# missing key), and an NSKeyedArchiver archive of ARCHIVE_COUNT products.
IN_PLIST= IN_ARCHIVE=
want_any "plist -> JSON" "plist -> XML plist" && IN_PLIST=$(plist_dataset plist)
want "archive -> JSON" && IN_ARCHIVE=$(plist_dataset archive)

op="plist -> JSON"
want "$op" && ferry_cases "$op" "$IN_PLIST" "$OUT/ferry-plist.json" --to json
want "$op" && bench_case "$op" plistlib "$IN_PLIST" -- python3 "$PYBENCH" plist2json "$IN_PLIST" "$OUT/plistlib.json"
want "$op" && check_same "$op, ferry vs plistlib" "$OUT/ferry-plist.json" "$OUT/plistlib.json"

# plistutil only re-encodes; ferry --to plist-xml runs when this build has it.
op="plist -> XML plist"
if want "$op"; then
    if "$FERRY" formats | awk '$1 == "plist-xml" { found = 1 } END { exit !found }'; then
        ferry_cases "$op" "$IN_PLIST" "$OUT/ferry-plist.xml" --to plist-xml
    else
        say "this ferry has no plist-xml format: the XML plist operation times plistutil alone"
    fi
    bench_case "$op" plistutil "$IN_PLIST" -- plistutil -i "$IN_PLIST" -o "$OUT/plistutil.xml" -f xml
    if [[ -s $OUT/ferry-plist.xml ]]; then
        check_same "$op, ferry vs plistutil" "$OUT/ferry-plist.xml" "$OUT/plistutil.xml"
    fi
fi

# Ferry decodes the archive's object graph into products and writes JSON with
# photos as data: URIs; Scripts/bench-archive.py makes the same JSON with each
# Python decoder.
op="archive -> JSON"
if want "$op"; then
    ferry_cases "$op" "$IN_ARCHIVE" "$OUT/ferry-archive.json" --to json
    if ensure_venv; then
        bench_case "$op" bpylist2 "$IN_ARCHIVE" -- "$VENV/bin/python" "$ARCHIVE_BENCH" bpylist2 "$IN_ARCHIVE" "$OUT/bpylist2.json"
        bench_case "$op" NSKeyedUnArchiver "$IN_ARCHIVE" -- \
            "$VENV/bin/python" "$ARCHIVE_BENCH" nskeyedunarchiver "$IN_ARCHIVE" "$OUT/nskeyedunarchiver.json"
        check_same "$op, ferry vs bpylist2" "$OUT/ferry-archive.json" "$OUT/bpylist2.json"
    else
        say "pip could not install bpylist2 and NSKeyedUnArchiver: the archive operation times ferry alone"
    fi
fi

# Validation: every record against the built-in product schema, with sku
# uniqueness. The peer checks the same rules on the JSON Lines (orjson and
# jsonschema-rs, Scripts/bench-validate.py); Ferry checks the CSV and the
# JSON Lines. frictionless gets a tenth of the rows (it is about 100 times
# slower), with Ferry on the same file beside it. The photos these files
# name (photos/p<N>.png) are not there, and the peers read no photo:
# Ferry is told so (`--photos skip`), as a CI job whose photos live
# elsewhere would; without it each is an error (photo.unreadable).
op="validate (1M, sku unique)"
if want "$op"; then
    bench_case "$op" ferry-jsonl "$IN_JSONL" -- "$FERRY" validate "$IN_JSONL" --photos skip --quiet
    bench_case "$op" ferry-csv "$IN_CSV" -- "$FERRY" validate "$IN_CSV" --photos skip --quiet
    # The same rows as Excel and Python's csv module write them: CRLF line
    # ends, and quotes where a field needs them.
    IN_CSV_CRLF="$WORK/products-$COUNT-crlf.csv"
    [[ -s $IN_CSV_CRLF && $IN_CSV_CRLF -nt $IN_CSV ]] ||
        python3 -c 'import csv, sys; r = csv.reader(open(sys.argv[1], newline="")); csv.writer(open(sys.argv[2], "w", newline="")).writerows(r)' \
            "$IN_CSV" "$IN_CSV_CRLF"
    bench_case "$op" ferry-csv-crlf "$IN_CSV_CRLF" -- "$FERRY" validate "$IN_CSV_CRLF" --photos skip --quiet
    if ensure_validate_venv; then
        bench_case "$op" jsonschema-rs "$IN_JSONL" -- "$VENV/bin/python" "$VALIDATE_BENCH" jsonschema-rs "$IN_JSONL"
    else
        say "pip could not install the validation peers: the validation operation times ferry alone"
    fi
fi
op="validate CSV (tenth, frictionless)"
if want "$op" && ensure_validate_venv; then
    IN_CSV_TENTH="$WORK/products-$COUNT-tenth.csv"
    [[ -s $IN_CSV_TENTH && $IN_CSV_TENTH -nt $IN_CSV ]] ||
        python3 -c 'import csv, sys; r = csv.reader(open(sys.argv[1], newline="")); w = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n"); w.writerow(next(r)); [w.writerow(row) for _, row in zip(range(int(sys.argv[3])), r)]' \
            "$IN_CSV" "$IN_CSV_TENTH" $((COUNT / 10))
    bench_case "$op" ferry "$IN_CSV_TENTH" -- "$FERRY" validate "$IN_CSV_TENTH" --photos skip --quiet
    bench_case "$op" frictionless "$IN_CSV_TENTH" -- "$VENV/bin/python" "$VALIDATE_BENCH" frictionless "$IN_CSV_TENTH"
fi

# Photo references whose files are not there (p<N>.jpg beside the file, in
# 60% of the records), against the same records with null photos: with
# `--photos skip` (no file is read), and checked (each reference is looked
# up in one listing of the folder; each is an error, photo.unreadable, exit
# 3, and the check stops at the default cap of 1,000 errors, so that row
# reads a partial report's worth of records). The peer reads the same JSON
# Lines and reads no photo.
op="validate, photos not there (1M)"
if want "$op"; then
    for format in jsonl csv; do
        null=$(dataset "$format" null)
        missing=$(dataset "$format" missing)
        bench_case "$op" "ferry-$format-null" "$null" -- "$FERRY" validate "$null" --quiet
        bench_case "$op" "ferry-$format-skip" "$missing" -- "$FERRY" validate "$missing" --photos skip --quiet
        # Exit 3 (a photo could not be read) is this row's success.
        bench_case "$op" "ferry-$format-check" "$missing" -- \
            sh -c '"$0" "$@"; [ $? -eq 3 ]' "$FERRY" validate "$missing" --quiet
        # No cap: every reference looked up and every error reported (600,000
        # lines of report, to /dev/null).
        bench_case "$op" "ferry-$format-check-all" "$missing" -- \
            sh -c '"$0" "$@" >/dev/null; [ $? -eq 3 ]' "$FERRY" validate "$missing" --max-errors 0 --quiet
    done
    if ensure_validate_venv; then
        missing=$(dataset jsonl missing)
        bench_case "$op" jsonschema-rs "$missing" -- "$VENV/bin/python" "$VALIDATE_BENCH" jsonschema-rs "$missing"
    fi
fi

report
