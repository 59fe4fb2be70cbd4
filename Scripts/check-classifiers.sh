#!/usr/bin/env bash
# CFerryScan's classifiers have two builds: SSE2 (x86_64, what every build
# here uses) and a byte loop for other targets, which nothing here would
# otherwise compile. This builds Scripts/classifiers-agree.c both ways with
# the toolchain's clang and expects the same masks.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'check-classifiers.sh: error: %s\n' "$*" >&2; exit 1; }
clang="$(dirname "$(command -v swiftc)")/clang"
[[ -x $clang ]] || clang=$(command -v clang || command -v cc) || die "no C compiler found"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=("$ROOT/Scripts/classifiers-agree.c" "$ROOT/Sources/CFerryScan/ferry_scan.c")
"$clang" -O2 -Wall -Werror -I"$ROOT/Sources/CFerryScan/include" "${sources[@]}" -o "$work/sse2"
"$clang" -O2 -Wall -Werror -U__SSE2__ -I"$ROOT/Sources/CFerryScan/include" "${sources[@]}" -o "$work/bytes"
vector=$("$work/sse2") || die "the SSE2 build: $vector"
scalar=$("$work/bytes") || die "the byte loop: $scalar"
[[ $vector == sse2\ * && $scalar == bytes\ * ]] || die "the builds are not the two ways: '$vector', '$scalar'"
[[ ${vector#sse2 } == "${scalar#bytes }" ]] || die "the masks differ: $vector against $scalar"
echo "the SSE2 classifiers and the byte loop agree ($vector)"
