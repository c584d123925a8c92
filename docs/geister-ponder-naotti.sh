#!/usr/bin/env bash
# Issue 60, item 3: Geister `best` pondering or not, on first games against a GAT program (Naotti-2020,
# built by hand as docs/geister-results.md says), each program pinned to its own core so that
# neither thinks on the other's time: ladderbot on core 0 (one search thread), the program on core 1.
# `serve-gat` runs the games; `play geister` keeps one agent for the session but with `adapt=0` it
# never refits its beliefs, so every game is a first game. Seats alternate: half the games with us
# first, half second.
#
#   bash docs/geister-ponder-naotti.sh OUT_DIR GAMES on|off "PROGRAM"   (PROGRAM: GAMES PORT HOST
#   on its stdin, as Naotti reads them, e.g. "/path/to/naotti 7" with the depth after it)
#
# Judge with: ladderbot merge --of best OUT_DIR/us-*.jsonl
set -euo pipefail
out=${1:?usage: geister-ponder-naotti.sh OUT_DIR GAMES on|off "PROGRAM DEPTH"}
games=${2:?games}
ponder=${3:?on or off}
program=${4:?the program and its depth}
B=${B:-$PWD/target/release/ladderbot}
mkdir -p "$out"
half=$((games / 2))
prog=${program% *}
depth=${program##* }
for first in us them; do
    log="$out/$first-first"
    "$B" serve-gat --ports 0,0 --games "$half" --out "$out/server-$ponder-$first.jsonl" \
        > "$log.serve.out" 2> "$log.serve.err" &
    server=$!
    ports=""
    for _ in $(seq 100); do
        ports=$(sed -n 's/.*listening on \([0-9]*,[0-9]*\).*/\1/p' "$log.serve.out")
        [ -n "$ports" ] && break
        sleep 0.1
    done
    [ -n "$ports" ] || { echo "serve-gat did not start" >&2; exit 1; }
    p0=${ports%,*}; p1=${ports#*,}
    if [ "$first" = us ]; then ours=$p0; theirs=$p1; else ours=$p1; theirs=$p0; fi
    echo "$half $theirs 127.0.0.1 $depth" | taskset -c 1 "$prog" > "$log.program.out" 2>&1 &
    program_pid=$!
    taskset -c 0 "$B" play geister --server "127.0.0.1:$ours" --agent best --param threads=1 \
        --param adapt=0 --time-ms 100 --ponder "$ponder" --games "$half" --name best \
        --records "$out/us-$ponder-$first.jsonl" > "$log.us.out" 2> "$log.us.err"
    wait "$program_pid" || true
    wait "$server" || true
done
"$B" merge --of best "$out"/us-"$ponder"-*.jsonl
