#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with AddressSanitizer and runs each.
#
#   Scripts/fuzz.sh            # 60 seconds a target
#   Scripts/fuzz.sh 25         # the CI smoke: 25 seconds a target
#   TARGETS="JSON CSV" Scripts/fuzz.sh 600
#   FUZZ_TIMEOUT=600 Scripts/fuzz.sh 900   # a longer per-input timeout (default 10 s)
#
# Each target starts from a corpus folder in $WORK (default /tmp/ferry-fuzz)
# seeded from Tests/Corpora, Examples/ and Fuzz/Regressions/<target>/,
# the committed inputs that once crashed or hung. A crash leaves its input in
# $WORK/crashes; add it to Fuzz/Regressions/<target>/ and a test that asserts
# its coded error. Every run first replays the regression inputs.
#
# SwiftPM links its own main, which hides libFuzzer's, so the targets are
# built with coverage instrumentation and libFuzzer's no-main runtime, and
# each target's main.swift calls LLVMFuzzerRunDriver itself.
set -euo pipefail

SECONDS_PER_TARGET=${1:-60}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-${TMPDIR:-/tmp}/ferry-fuzz}
BUILD=${BUILD:-$WORK/build}
TARGETS=${TARGETS:-"JSON JSONL CSV Gzip Plist XMLPlist Archive Bundle XLSX CLI"}
CORPORA="$ROOT/Tests/Corpora"

die() { printf 'fuzz.sh: error: %s\n' "$*" >&2; exit 1; }
[[ $SECONDS_PER_TARGET =~ ^[0-9]+$ ]] || die "seconds must be a whole number"
[[ -d $CORPORA ]] || die "the vendored corpora are missing at $CORPORA"

runtime=$(find "$(dirname "$(command -v swiftc)")/../lib/clang" -name 'libclang_rt.fuzzer_no_main-x86_64.a' | head -n 1)
[[ -n $runtime ]] || die "libclang_rt.fuzzer_no_main-x86_64.a not found in the Swift toolchain"

echo "==> building the fuzz targets (release, AddressSanitizer)"
mkdir -p "$WORK"
build_log="$WORK/build.log"
# A failed build must stop the run: fuzzing the binaries an older build left
# would test code that is no longer there.
# -enable-testing: the targets reach the decoders' package API (the
# readers, writers and raw records the public surface leaves out) through
# `@testable import`, from a package of their own.
if ! (cd "$ROOT/Fuzz" && swift build -c release --build-path "$BUILD" \
    -Xswiftc -enable-testing \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    -Xlinker "$runtime" -Xlinker -lstdc++) >"$build_log" 2>&1; then
    grep -v 'ld.gold: warning' "$build_log" | grep -E 'error' | head -n 20
    die "the fuzz targets did not build (the whole log: $build_log)"
fi
grep -v 'ld.gold: warning' "$build_log" | grep -E 'Compiling|Build' || true

# Allocation is most of an execution's cost under ASan: no fill of new
# memory and no allocation stacks make each about a fifth faster. To see
# where the memory of a crashing input came from, replay it with
# ASAN_OPTIONS=detect_leaks=1 "$BUILD/release/Fuzz<target>" <input>.
# Leaks are checked (LeakSanitizer, after an input that allocated more than
# it freed): a reader that leaked 4 KiB whenever its initializer threw was
# found only once the fuzzer's memory ran out.
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:max_malloc_fill_size=0:malloc_context_size=0
mkdir -p "$WORK/crashes"
status=0
for target in $TARGETS; do
    binary="$BUILD/release/Fuzz$target"
    [[ -x $binary ]] || die "the build made no $binary"
    corpus="$WORK/corpus/$target"
    regressions="$ROOT/Fuzz/Regressions/$target"
    mkdir -p "$corpus" "$regressions"
    case $target in
        JSON) cp -n "$CORPORA"/JSONTestSuite/test_parsing/*.json "$ROOT"/Examples/*.json "$corpus"/ ;;
        JSONL) cp -n "$ROOT"/Examples/*.jsonl "$corpus"/ ;;
        CSV) cp -n "$CORPORA"/csv-spectrum/csvs/*.csv "$CORPORA"/csvkit-examples/*.csv "$ROOT"/Examples/*.csv "$corpus"/
            # Generated products, long enough for the simple rows' 64-byte
            # blocks (a first byte of 0: no options, products).
            for count in 20 60; do
                { printf '\0'; python3 "$ROOT/Scripts/gen-products.py" --count "$count" --format csv; } \
                    >"$corpus/generated-$count.csv"
            done ;;
        Gzip) cp -n "$CORPORA"/flate2-gzip/*.gz "$CORPORA"/miller-gz/*.gz "$corpus"/ ;;
        Plist) cp -n "$CORPORA"/keyed-archives/libplist/*.bplist "$CORPORA"/keyed-archives/rust-plist/*.plist \
            "$CORPORA"/libplist-fuzz/fuzz/bplist-crashes/* "$CORPORA"/libplist-fuzz/fuzz/bplist-leaks/* "$corpus"/ ;;
        Archive) cp -n "$CORPORA"/keyed-archives/bpylist2/* "$CORPORA"/keyed-archives/swift-corelibs-foundation/* \
            "$ROOT"/Examples/Products "$corpus"/ ;;
        XMLPlist) for file in "$CORPORA"/keyed-archives/swift-corelibs-foundation/*.plist; do
                head -c 5 "$file" | grep -q '<?xml' && cp -n "$file" "$corpus"/
            done ;;
        Bundle) python3 "$ROOT/Scripts/make-fuzz-bundles.py" "$corpus" ;;
        # Small packages (a first byte of 0) and sheets (of 1), stdlib only.
        XLSX) python3 "$ROOT/Scripts/make-workbooks.py" seeds "$corpus" ;;
        CLI) printf 'convert\0in.json\0out.csv\0--kind\0product' >"$corpus/convert"
            printf 'inspect\0--report-format\0json\0--max-objects\0100\0Products' >"$corpus/inspect"
            printf 'lint\0--from\0plist\0--\0-x' >"$corpus/lint" ;;
    esac
    dictionary="$ROOT/Fuzz/Dictionaries/$(echo "$target" | tr '[:upper:]' '[:lower:]').dict"
    dict_args=()
    [[ -f $dictionary ]] && dict_args=(-dict="$dictionary")

    if compgen -G "$regressions/*" >/dev/null; then
        echo "==> $target: replaying $(ls "$regressions" | wc -l) regression inputs"
        "$binary" -runs=0 "$regressions"/* >"$WORK/$target-replay.log" 2>&1 ||
            { status=1; echo "    FAILED: see $WORK/$target-replay.log"; }
    fi
    echo "==> $target: fuzzing for ${SECONDS_PER_TARGET}s"
    if "$binary" -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -timeout="${FUZZ_TIMEOUT:-10}" -print_final_stats=1 \
        -artifact_prefix="$WORK/crashes/$target-" "${dict_args[@]}" "$corpus" >"$WORK/$target.log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$WORK/$target.log" | grep -o '[0-9]*$')
        echo "    ok: $runs executions"
    else
        status=1
        echo "    CRASH or hang: see $WORK/$target.log and $WORK/crashes/"
        tail -n 30 "$WORK/$target.log"
    fi
done
exit $status
