#!/usr/bin/env bash
# Reproduces docs/floodit-results.md. Prints one JSON line per measurement.
# Usage: bash docs/floodit-results.sh > floodit-results.jsonl    (about 50 minutes on 2 cores)
# Every match: 14 x 14 boards with 6 colours, 400 games, each board played twice with the seats
# swapped (games 2k and 2k+1 share board k), 100 ms per move for the searching agents.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B=target/release/ladderbot
M="$B match floodit --size 14x14 --colours 6 --games 400 --time-ms 100 --jobs 2 --json"

# Random playouts per second: bitboard rules vs the breadth-first reference, in one run.
"$B" bench floodit-playouts --json 2>/dev/null | tail -n 1
# The seed's Monte Carlo against the greedy colour choice.
$M --a mc --b greedy --seed 21 2>/dev/null | tail -n 1
# The seed's planned improvement (playouts scored by the margin too) against plain mc.
$M --a mc-area --b mc --seed 22 2>/dev/null | tail -n 1
$M --a mc-area --b mc --a-param weight=1 --seed 23 2>/dev/null | tail -n 1
# best against the seed's agent and against the 7 Colors baseline.
$M --a best --b mc --seed 24 2>/dev/null | tail -n 1
$M --a best --b alphabeta --seed 25 2>/dev/null | tail -n 1
