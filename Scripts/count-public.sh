#!/usr/bin/env bash
# Counts the public declarations of each of Ferry's library modules.
#
#   Scripts/count-public.sh [MODULE…]
#
# from the symbol graphs of the modules a debug build made (it runs
# `swift build` first): every symbol whose access is public, in the
# module's own graph and in its graphs of extensions to other modules'
# types (`FerryCore@Swift`: a `tailWord` on `UnsafeRawBufferPointer`
# counts for FerryCore). Members inherited from protocols and synthesized
# ones are not counted; `package` and internal declarations are not in the
# graphs at all. Prints `MODULE COUNT` lines, then the total; ARCHITECTURE.md
# ("The public surface") records them.
set -Eeuo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

MODULES=("$@")
((${#MODULES[@]})) || MODULES=(FerryCore FerryJSON FerryCSV FerryCSVToJSON FerryGzip FerryPlist FerryBundle FerryXLSX FerryKit Ferry)

# NO_BUILD=1 counts what the last build left.
[[ ${NO_BUILD:-} == 1 ]] || swift build --target Ferry >/dev/null
# shellcheck source=Scripts/symbol-graph.sh
source "$ROOT/Scripts/symbol-graph.sh"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

total=0
for module in "${MODULES[@]}"; do
    extract_symbol_graph "$module" "$OUT/$module" >/dev/null
    count=$(python3 - "$OUT/$module" "$module" <<'PY'
import glob, json, os, sys
folder, module = sys.argv[1], sys.argv[2]
count = 0
for path in glob.glob(os.path.join(folder, "*.symbols.json")):
    name = os.path.basename(path)
    if name != f"{module}.symbols.json" and not name.startswith(f"{module}@"):
        continue
    graph = json.load(open(path))
    count += sum(1 for symbol in graph["symbols"] if symbol.get("accessLevel") == "public")
print(count)
PY
)
    printf '%-16s %5d\n' "$module" "$count"
    total=$((total + count))
done
printf '%-16s %5d\n' total "$total"
