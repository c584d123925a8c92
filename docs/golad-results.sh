#!/usr/bin/env bash
# Reproduces docs/golad-results.md. Prints one JSON line per measurement.
# Usage: bash docs/golad-results.sh > golad-results.jsonl    (about 75 minutes on 2 cores)
# With ERIC=/path/to/eric (the sparring partner, built as docs/golad-results.md says), also the
# games against it (about 75 minutes more).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B=target/release/ladderbot

# The seed's time comparison: the same 10 moves, ai1 (array board) vs ai2 (bitboard).
"$B" bench golad-ai2 --json 2>/dev/null | tail -n 1
# One Life generation, bitboard vs array.
"$B" bench golad-step --json 2>/dev/null | tail -n 1
# The seed's strength comparison, in-process: ai3 vs ai2 (their seed budgets: 50 and 100 playouts).
"$B" match golad --a ai3 --b ai2 --games 200 --jobs 2 --seed 1 --json 2>/dev/null | tail -n 1
# mcts-v1 (best before issue 10) through the Riddles.io protocol, as on the ladder: the local
# engine runs both bots as processes.
"$B" referee golad --bot "$B play golad --stdio --agent mcts-v1" --bot "$B play golad --stdio --agent ai3" \
  --games 100 --seed 11 --json 2>/dev/null | tail -n 1
# ... and against ai3 given the same 100 ms as a time budget instead of 50 playouts.
"$B" referee golad --bot "$B play golad --stdio --agent mcts-v1" \
  --bot "$B play golad --stdio --agent ai3 --param playouts=0 --time-ms 100" \
  --games 100 --seed 12 --json 2>/dev/null | tail -n 1

# Issue 33's measure: best (the upload profile: 100 ms per answer) against the baselines
# (issue 10's runs, with best as it is now), against ab-v1, and the learned model's speed.
"$B" bench golad-value --json 2>/dev/null | tail -n 1
"$B" referee golad --bot "$B play golad --stdio --profile golad-best" \
  --bot "$B play golad --stdio --profile golad-best --agent ab-v1" --games 100 --seed 33 --json 2>/dev/null | tail -n 1
"$B" referee golad --bot "$B play golad --stdio --profile golad-best" \
  --bot "$B play golad --stdio --profile golad-mcts-v1" --games 100 --seed 31 --json 2>/dev/null | tail -n 1
"$B" referee golad --bot "$B play golad --stdio --profile golad-best" \
  --bot "$B play golad --stdio --profile golad-ai3" --games 100 --seed 32 --json 2>/dev/null | tail -n 1
if [ -n "${ERIC:-}" ]; then
  "$B" referee golad --bot "$B play golad --stdio --profile golad-best" --bot "$ERIC" \
    --games 100 --seed 21 --json 2>/dev/null | tail -n 1
  # ab-v1 with the same profile on the first 40 of those start fields, and the bank profile.
  "$B" referee golad --bot "$B play golad --stdio --profile golad-best --agent ab-v1" --bot "$ERIC" \
    --games 40 --seed 21 --json 2>/dev/null | tail -n 1
  "$B" referee golad --bot "$B play golad --stdio --profile golad-best-bank" --bot "$ERIC" \
    --games 20 --seed 41 --json 2>/dev/null | tail -n 1
fi

# Issue 48: the integer flood against the exact one, best's nodes per move at 60 ms beside
# ab-v1's (ab-v2's in the note), and the leaf cut on ab-v2. (The SPRT of rank=1 reply_whole=1
# ran here until those levers were removed; they are in commit 507d22d.)
"$B" bench golad-flood --json 2>/dev/null | tail -n 1
"$B" bench golad-best --json 2>/dev/null | tail -n 1
"$B" bench golad-leafcut --samples 3 --json 2>/dev/null | tail -n 1
# Issue 48's measure against the sparring partner (not in CI; build it as above), with records,
# and the first 20 games analysed (docs/golad-draws.py summarises the draws).
if [ -x /work/scratch/eric/eric ]; then
  P="$B play golad --stdio --profile golad-best"
  "$B" referee golad --bot "$P" --bot /work/scratch/eric/eric --games 20 --seed 21 --json --out eric20.jsonl 2>/dev/null | tail -n 1
  "$B" referee golad --bot "$P" --bot /work/scratch/eric/eric --games 80 --seed 31 --json --out eric80.jsonl 2>/dev/null | tail -n 1
  "$B" analyze eric20.jsonl --agent best --param threads=1 --playouts 300000 --rollouts 0 --jobs 2 \
    --json --out eric20-analysed.jsonl 2>/dev/null | tail -n 1
  python3 docs/golad-draws.py eric20-analysed.jsonl --lead 0.75
fi
