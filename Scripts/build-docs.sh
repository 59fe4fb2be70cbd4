#!/usr/bin/env bash
# Builds the DocC documentation of the Ferry library, warnings as errors.
#
#   Scripts/build-docs.sh [OUTPUT]        (default .build/docs/Ferry.doccarchive)
#
# No plugin: the toolchain's own tools. `swift build` makes the modules,
# `swift-symbolgraph-extract` the symbol graph of module Ferry with what it
# re-exports (FerryCore, FerryKit and the codec modules), and `docc convert`
# turns it and Sources/Ferry/Documentation.docc (the landing page and the
# articles) into an archive. A broken symbol link, an unknown parameter or
# any other DocC warning fails the script.
set -Eeuo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUTPUT=${1:-$ROOT/.build/docs/Ferry.doccarchive}

command -v docc >/dev/null 2>&1 || { echo "build-docs.sh: docc is not on PATH (it comes with the Swift toolchain)" >&2; exit 1; }
swift build --target Ferry
# shellcheck source=Scripts/symbol-graph.sh
source "$ROOT/Scripts/symbol-graph.sh"
GRAPHS=$(mktemp -d)
trap 'rm -rf "$GRAPHS"' EXIT
REEXPORTED=FerryCore,FerryKit,FerryJSON,FerryCSV,FerryCSVToJSON,FerryPlist,FerryGzip,FerryBundle,FerryXLSX
extract_symbol_graph Ferry "$GRAPHS" -experimental-allowed-reexported-modules="$REEXPORTED"

rm -rf "$OUTPUT"
mkdir -p "$(dirname "$OUTPUT")"
docc convert Sources/Ferry/Documentation.docc --additional-symbol-graph-dir "$GRAPHS" \
    --output-dir "$OUTPUT" --fallback-display-name Ferry --fallback-bundle-identifier org.ferry.Ferry \
    --warnings-as-errors
echo "build-docs.sh: $OUTPUT"
