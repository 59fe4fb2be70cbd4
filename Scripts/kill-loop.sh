#!/usr/bin/env bash
# Kills conversions at random moments and checks that the destination is
# never partial or damaged.
#
#   Scripts/kill-loop.sh [runs]        # default 100
#
# Each run converts a ~100 MB JSON Lines file to JSON over an existing,
# valid destination and is killed, after a random delay, with SIGTERM or
# SIGKILL (alternating). Afterwards the destination must be either the old
# file, byte for byte, or the complete new output (when the kill came too
# late). After SIGTERM no temporary file may remain; after SIGKILL the
# temporary file stays, since a process cannot act on SIGKILL: it is counted
# and removed.
set -euo pipefail

RUNS=${1:-100}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-${TMPDIR:-/tmp}/ferry-kill}
FERRY=${FERRY:-}
if [[ -z $FERRY ]]; then
    (cd "$ROOT" && swift build -c release --product ferry --static-swift-stdlib -Xswiftc -use-ld=lld >&2)
    FERRY="$ROOT/.build/release/ferry"
fi
mkdir -p "$WORK"
input="$WORK/input.jsonl"
if [[ ! -s $input ]]; then
    python3 "$ROOT/Scripts/gen-products.py" --count 1050000 --format jsonl --out "$input"
fi
old="$WORK/old.json"
printf '[{"name": "old", "price": 1.0}]\n' > "$old"
"$FERRY" convert "$input" "$WORK/complete.json" --force --quiet
complete_sum=$(sha256sum < "$WORK/complete.json")
old_sum=$(sha256sum < "$old")

kept_old=0 completed=0 damaged=0 leftovers_term=0 leftovers_kill=0
for ((run = 1; run <= RUNS; run++)); do
    destination="$WORK/out.json"
    cp "$old" "$destination"
    signal=$((run % 2 == 0 ? 9 : 15))
    delay=$(python3 -c "import random; print(f'{random.uniform(0.0, 1.5):.3f}')")
    "$FERRY" convert "$input" "$destination" --force --quiet &
    pid=$!
    sleep "$delay"
    kill -"$signal" "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    sum=$(sha256sum < "$destination")
    if [[ $sum == "$old_sum" ]]; then
        kept_old=$((kept_old + 1))
    elif [[ $sum == "$complete_sum" ]]; then
        completed=$((completed + 1))
    else
        damaged=$((damaged + 1))
        echo "run $run: DAMAGED destination after signal $signal at ${delay}s" >&2
    fi
    leftovers=$(find "$WORK" -maxdepth 1 -name '.out.json.ferry-*' | wc -l)
    if ((leftovers > 0)); then
        if ((signal == 15)); then
            leftovers_term=$((leftovers_term + 1))
            echo "run $run: temporary file left after SIGTERM" >&2
        else
            leftovers_kill=$((leftovers_kill + 1))
        fi
        find "$WORK" -maxdepth 1 -name '.out.json.ferry-*' -delete
    fi
done

echo "runs: $RUNS; destination kept old: $kept_old; complete new output: $completed; damaged: $damaged"
echo "temporary files left: after SIGTERM $leftovers_term, after SIGKILL $leftovers_kill (a killed process cannot clean up)"
((damaged == 0 && leftovers_term == 0))
