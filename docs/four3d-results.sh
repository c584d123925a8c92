#!/usr/bin/env bash
# Reproduces docs/four3d-results.md: every pairing of the seed's table (200 games each, seats
# alternated, fixed seeds), then `uct-tactics` (`best` until issue 15) against `uct-es`. Prints one JSON report per line.
# Usage: bash docs/four3d-results.sh > four3d-results.jsonl   (about 15 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B=target/release/ladderbot
m() { "$B" match four3d --games 200 --jobs 2 --json "$@" 2>/dev/null | tail -n 1; }

# The seed's programs at equal playouts (A is the program the seed expects to be stronger).
for n in 10000 20000; do
  m --a ucb1 --b pmc --playouts "$n" --seed 1
  m --a uct --b ucb1 --playouts "$n" --seed 2
done
# UCT at 50000 against UCT at 20000, and the seed's proposal at 20000 against UCT at 50000.
m --a uct --b uct --a-playouts 50000 --b-playouts 20000 --seed 3
m --a uct-es --b uct --a-playouts 20000 --b-playouts 50000 --seed 4
# uct-tactics (`best` until issue 15) at 100 ms per move.
m --a uct-tactics --b uct-es --a-time-ms 100 --b-playouts 20000 --seed 5
m --a uct-tactics --b uct-es --time-ms 100 --seed 6
