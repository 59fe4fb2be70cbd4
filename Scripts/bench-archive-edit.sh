#!/usr/bin/env bash
# Editing one product of a generated keyed archive in place
# (KeyedArchiveEditor) against decoding it whole and archiving it again.
# A micro-benchmark, not a test: Benchmarks/Sources/BenchArchiveEdit.
#
#   Scripts/bench-archive-edit.sh            # 100,000 products
#   Scripts/bench-archive-edit.sh 1000000
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
COUNT=${1:-100000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$ROOT/Scripts/gen-plists.py" archive --count "$COUNT" --out "$WORK/products.archive" >&2
# -enable-testing: the benchmarks drive package API through @testable imports.
swift build -c release -Xswiftc -enable-testing --package-path "$ROOT/Benchmarks" --product BenchArchiveEdit >&2
"$ROOT/Benchmarks/.build/release/BenchArchiveEdit" "$WORK/products.archive"
