# Sourced by Scripts/count-public.sh and Scripts/build-docs.sh (not run):
#
#   extract_symbol_graph MODULE OUTPUT-DIR [EXTRA-FLAG…]
#
# writes MODULE's symbol graphs (public declarations, no synthesized
# members) from the modules the last debug build left, with the C
# modules' maps (SwiftPM generates those of the targets with an include
# folder) for the modules that import them. Needs ROOT set.
SYMBOL_BIN=$(swift build --show-bin-path)
SYMBOL_MODULES="$SYMBOL_BIN/Modules"
[[ -d $SYMBOL_MODULES ]] || SYMBOL_MODULES=$SYMBOL_BIN
SYMBOL_TRIPLE=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

extract_symbol_graph() {
    local module=$1 output=$2
    shift 2
    local flags=() map
    for map in "$SYMBOL_BIN/CFerrySystem.build/module.modulemap" "$SYMBOL_BIN/CFerryScan.build/module.modulemap" \
        "$ROOT/Sources/CZlib/module.modulemap"; do
        flags+=(-Xcc "-fmodule-map-file=$map")
    done
    mkdir -p "$output"
    swift-symbolgraph-extract -module-name "$module" -target "$SYMBOL_TRIPLE" -I "$SYMBOL_MODULES" "${flags[@]}" \
        -minimum-access-level public -skip-synthesized-members -output-dir "$output" "$@"
}
