#!/usr/bin/env bash
# Counts the instructions a command runs, with Valgrind's callgrind: an A/B
# measure that does not move with the host's speed (this VM has no
# performance counters, and its speed drifts from minute to minute).
#
#   Scripts/count-instructions.sh BINARY [ARGUMENTS...]
#   Scripts/count-instructions.sh .build/release/ferry merge a.jsonl b.jsonl -o /dev/null
#   TOP=20 Scripts/count-instructions.sh /tmp/ferry-old validate p.csv
#
# Prints the total, and with TOP=N the N functions that ran the most
# instructions (self cost). Threads run one at a time under Valgrind, and
# a run takes 20 to 50 times as long as without it: use inputs of a few
# hundred thousand records. Valgrind refuses the release binary's DWARF,
# so the binary is copied without it first (`strip --strip-debug`, which
# keeps the symbols). Needs valgrind: `apt-get install valgrind`.
# Standard output and error of the command are dropped.
set -Eeuo pipefail

if [[ $# -lt 1 ]]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
command -v valgrind >/dev/null || { echo "count-instructions: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
binary=$work/$(basename "$1")
strip --strip-debug -o "$binary" "$1"
shift

valgrind --tool=callgrind --callgrind-out-file="$work/out" "$binary" "$@" >/dev/null 2>"$work/log" || true
grep -q "refs:" "$work/log" || { cat "$work/log" >&2; exit 1; }
sed -n 's/^==[0-9]*== I *refs: *//p' "$work/log" | sed 's/^/instructions: /'
if [[ -n ${TOP:-} ]]; then
    callgrind_annotate "$work/out" 2>/dev/null | grep -E '^ *[0-9,]+ \(' | sed -n "2,$((TOP + 1))p" |
        { command -v swift >/dev/null && swift demangle --simplified || cat; }
fi
