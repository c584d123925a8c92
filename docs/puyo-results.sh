#!/usr/bin/env bash
# Reproduces docs/puyo-results.md. Prints one JSON line per measurement.
# Usage: bash docs/puyo-results.sh > puyo-results.jsonl    (about 50 minutes on 2 cores)
# Lab runs use pair sequences 1..N (--seed 1); drawings, options and thresholds were chosen on
# sequences 1000 and up. Timed runs (every lab run reports ms per move) take the shared lock.
set -euo pipefail
cd "$(dirname "$0")/.."
# LADDERBOT=path runs a given binary instead of building one.
B=${LADDERBOT:-target/release/ladderbot}
[ -n "${LADDERBOT:-}" ] || cargo build --release --quiet
LOCK=${LADDERBOT_LOCK:-/tmp/ladderbot-timed.lock}
L="flock $LOCK $B ladderbot-lab puyo"

# Template completion (the seed: 50 trials; stairs 23.40, sandwich 24.06, domino 21.96).
for t in stairs sandwich domino; do
  $L completion --templates "$t" --sequences 200 --json 2>/dev/null | tail -n 1
  $L completion --templates "$t" --sequences 200 --depth 1 --json 2>/dev/null | tail -n 1
done
# Share of runs over 30 moves, 500 sequences (the seed: stairs 6.6%, sandwich 9.6%, both 3.4%).
for t in stairs sandwich all; do
  $L completion --templates "$t" --sequences 500 --json 2>/dev/null | tail -n 1
done
# One player until the final chain, 500 sequences (the seed: combined 10.99 / 438.9, potential 8.80 / 301.0).
$L solo --agent potential --sequences 500 --json 2>/dev/null | tail -n 1
$L solo --agent combined --sequences 500 --json 2>/dev/null | tail -n 1
# The seed's platform as a rule set (issue 34): the same table under `rules=seed` (over=full).
for t in stairs sandwich domino; do
  $L completion --rules seed --templates "$t" --sequences 200 --json 2>/dev/null | tail -n 1
done
$L completion --rules seed --templates all --sequences 500 --json 2>/dev/null | tail -n 1
$L solo --rules seed --agent potential --sequences 500 --json 2>/dev/null | tail -n 1
$L solo --rules seed --agent combined --sequences 500 --json 2>/dev/null | tail -n 1
$B match puyo --game-option rules=seed --a combined --b potential --games 500 --jobs 2 --seed 31 --json 2>/dev/null | tail -n 1
# The calibration sweep on held-out sequences 1000-1199 (docs: "Calibration on the baseline").
for o in cell top full; do
  for fa in 12 16 20 24 30 36; do
    $L solo --over $o --agent potential --sequences 200 --seed 1000 --param full_at=$fa --json 2>/dev/null | tail -n 1
  done
done
# best within 50 ms per move (its own budget 35 ms), 200 sequences.
$L solo --agent best --sequences 200 --json 2>/dev/null | tail -n 1
# Duels: each pair sequence played twice with the seats swapped (the seed: combined .748).
$B match puyo --a combined --b potential --games 500 --jobs 2 --seed 31 --json 2>/dev/null | tail -n 1
# The previous reading of the seed's case (b) ("the chain kills"), for both agents.
$B match puyo --a combined --b potential --a-param kill=now --b-param kill=now --games 500 --jobs 2 --seed 31 --json 2>/dev/null | tail -n 1
flock "$LOCK" $B match puyo --a best --b combined --games 200 --time-ms 50 --jobs 2 --seed 32 --json 2>/dev/null | tail -n 1
flock "$LOCK" $B match puyo --a best --b potential --games 200 --time-ms 50 --jobs 2 --seed 33 --json 2>/dev/null | tail -n 1
# Issue 49 (docs: "Issue 49"). beam-v1 (issue 34's best, one thread) before, best after, with
# the failure categories of the runs under 13 links; best's two threads want both cores idle.
$L solo --agent beam-v1 --sequences 200 --jobs 2 --json 2>/dev/null | tail -n 1
$L solo --agent best --sequences 500 --json 2>/dev/null | tail -n 1
$B bench puyo-best --json 2>/dev/null | tail -n 1
flock "$LOCK" $B match puyo --a best --b beam-v1 --a-param race=0 --time-ms 12 --games 1000 --jobs 1 --seed 4905 --sprt 0,30 --json 2>/dev/null | tail -n 1
flock "$LOCK" $B match puyo --a best --b beam-v1 --a-param race=1 --time-ms 12 --games 1000 --jobs 1 --seed 4908 --sprt 0,30 --json 2>/dev/null | tail -n 1
flock "$LOCK" $B match puyo --a best --b beam-v1 --time-ms 50 --games 200 --jobs 1 --seed 4906 --json 2>/dev/null | tail -n 1
flock "$LOCK" $B match puyo --a best --b combined --time-ms 50 --games 200 --jobs 1 --seed 4907 --json 2>/dev/null | tail -n 1
