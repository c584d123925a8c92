#!/usr/bin/env bash
# Issue 58: thinking on the opponent's time, measured per game. Pondering on against pondering
# off, the same profile on both sides, each program pinned to its own core (`taskset -c 0` and
# `taskset -c 1`) so that neither takes the other's time; each over its real platform, as
# separate programs:
#   - Score Four: `serve --openings` (the shipped suite, each opening with both seats) and two
#     `play --profile four3d-best` clients;
#   - Geister: `serve-gat` and two `play --profile geister-best` sessions, then the same with the
#     ports swapped (each side has each seat for half the games).
# Every side runs its agent on one thread (`--param threads=1`): one core each. Results:
# `ladderbot merge --of on ... --sprt 0,20` over the records (the SPRT verdict on a fixed number
# of games). Everything lands in OUT (default ponder-out/). GOLAD's ponder, measured here at
# commit 55613a6 (`referee golad` between two `golad-best` bots), was removed from the code with
# this script's GOLAD part; both are in commit 507d22d.
# Usage: bash docs/ponder-results.sh [OUT] [GAMES] [TIME_MS] [GAME...]
#   GAMES per game (default 200), TIME_MS a move (default: each profile's own), GAME among
#   four3d geister (default both). Geister: SEATS=first (second) plays all its
#   games with `on` in seat 0 (1), for a run in parts. BIN=PATH plays that binary (no build).
set -euo pipefail
cd "$(dirname "$0")/.."
# BIN=PATH runs that binary (no build).
if [ -n "${BIN:-}" ]; then
    B=$(realpath "$BIN")
else
    cargo build --release --quiet
    B=$PWD/target/release/ladderbot
fi
OUT=${1:-ponder-out}
GAMES=${2:-200}
TIME=${3:-}
shift $(( $# < 3 ? $# : 3 ))
LIST=("$@")
[ ${#LIST[@]} -gt 0 ] || LIST=(four3d geister)
command -v taskset > /dev/null || { echo "taskset (util-linux) is needed" >&2; exit 2; }
[ "$(nproc)" -ge 2 ] || { echo "two cores are needed" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
time_args=()
[ -z "$TIME" ] || time_args=(--time-ms "$TIME")
step() { echo "== $*"; }

# What a server printed after `listening on ` (waits up to 10 s).
listening() {
    local at=""
    for _ in $(seq 100); do
        at=$(sed -n 's/^listening on //p' "$1")
        [ -n "$at" ] && { echo "$at"; return; }
        sleep 0.1
    done
    echo "the server did not start (see $1)" >&2
    exit 1
}

for game in "${LIST[@]}"; do
    case $game in
    four3d)
        step "four3d: best, pondering on against off, $GAMES games from openings/four3d.txt"
        rec="$OUT/four3d.jsonl"
        : > "$rec"
        "$B" serve --bind 127.0.0.1:0 --time-per-move-ms 1000 --records "$rec" --house-agent "" \
            --openings four3d=openings/four3d.txt > "$OUT/four3d-serve.out" 2> "$OUT/four3d-serve.log" &
        server=$!
        url=$(listening "$OUT/four3d-serve.out")
        taskset -c 0 "$B" play four3d --profile four3d-best "${time_args[@]}" --param threads=1 \
            --server "$url" --opponent any --games "$GAMES" --name on --ponder on \
            > "$OUT/four3d-on.out" 2> "$OUT/four3d-on.log" &
        on=$!
        taskset -c 1 "$B" play four3d --profile four3d-best "${time_args[@]}" --param threads=1 \
            --server "$url" --opponent any --games "$GAMES" --name off --ponder off \
            > "$OUT/four3d-off.out" 2> "$OUT/four3d-off.log" &
        off=$!
        wait "$on" "$off"
        kill -TERM "$server"; wait "$server" || true
        "$B" merge --of on "$rec" --sprt 0,20
        ;;
    geister)
        step "geister: best, pondering on against off, $GAMES games (seats: ${SEATS:-half each})"
        # SEATS=first (or second) plays all GAMES with `on` in seat 0 (or 1): a
        # run in parts, each seat's part the same size, read together by merge.
        half=$(( GAMES / 2 ))
        orders=("0 1" "1 0")
        case ${SEATS:-both} in
        both) ;;
        first) orders=("0 1"); half=$GAMES ;;
        second) orders=("1 0"); half=$GAMES ;;
        *) echo "SEATS is both, first or second" >&2; exit 2 ;;
        esac
        for order in "${orders[@]}"; do
            read -r p_on p_off <<< "$order"
            "$B" serve-gat --ports 0,0 --games "$half" --out "$OUT/geister-server-$p_on.jsonl" \
                > "$OUT/geister-serve-$p_on.out" 2> "$OUT/geister-serve-$p_on.log" &
            server=$!
            ports=$(listening "$OUT/geister-serve-$p_on.out")
            IFS=, read -r -a port <<< "$ports"
            taskset -c 0 "$B" play --profile geister-best "${time_args[@]}" --param threads=1 \
                --server "127.0.0.1:${port[$p_on]}" --games "$half" --name on --ponder on \
                --records "$OUT/geister-on.jsonl" > "$OUT/geister-on-$p_on.out" 2> "$OUT/geister-on-$p_on.log" &
            on=$!
            taskset -c 1 "$B" play --profile geister-best "${time_args[@]}" --param threads=1 \
                --server "127.0.0.1:${port[$p_off]}" --games "$half" --name off --ponder off \
                > "$OUT/geister-off-$p_on.out" 2> "$OUT/geister-off-$p_on.log" &
            off=$!
            wait "$on" "$off"
            wait "$server" || true
        done
        "$B" merge --of on "$OUT/geister-on.jsonl" --sprt 0,20
        ;;
    *) echo "unknown game $game (four3d, geister)" >&2; exit 2 ;;
    esac
done
