#!/usr/bin/env bash
# Record keys per second (KeyFields.digest) on a million generated keys of
# each kind of text, and RecordEquality on a million pairs of records.
# A micro-benchmark, not a test: Benchmarks/Sources/BenchKeys.
#
#   Scripts/bench-keys.sh            # 1,000,000 keys
#   Scripts/bench-keys.sh 5000000
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# -enable-testing: the benchmarks drive package API through @testable imports.
swift build -c release -Xswiftc -enable-testing --package-path "$ROOT/Benchmarks" --product BenchKeys >&2
"$ROOT/Benchmarks/.build/release/BenchKeys" "${1:-1000000}"
