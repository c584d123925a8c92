#!/usr/bin/env bash
# Reproduces GOLAD best's learned value model (issue 33, docs/golad-results.md, "Issue 33"):
# the 1,100 recorded games it is fitted on, the fit, and its accuracy on the held-out games.
# Usage: bash docs/golad-value.sh [OUT_DIR]     (about 15 minutes on 2 cores)
# Every game is played at a fixed budget (evaluations or playouts per move, one search thread),
# so the same binary gives the same games and the same weights. No game of the sparring
# partner (eric-clinch/Golad) is used.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B=$PWD/target/release/ladderbot
out=${1:-target/golad-value}
mkdir -p "$out"
cd "$out"
T="--a-param threads=1"
TB="--b-param threads=1"
# ab-v1 against itself at 4x the budget, and at the same budget (almost all draws).
"$B" match golad --a ab-v1 --b ab-v1 --a-playouts 20000 --b-playouts 5000 $T $TB --games 400 --jobs 2 --seed 100 --out d1.jsonl
"$B" match golad --a ab-v1 --b ab-v1 --a-playouts 40000 --b-playouts 40000 $T $TB --games 200 --jobs 2 --seed 101 --out d2.jsonl
# ab-v1 against mcts-v1, the seed's ai3 and control; mcts-v1 against ai3.
"$B" match golad --a ab-v1 --b mcts-v1 --a-playouts 20000 --b-playouts 2000 $T --games 200 --jobs 2 --seed 102 --out d3.jsonl
"$B" match golad --a ab-v1 --b ai3 --a-playouts 20000 $T --games 100 --jobs 2 --seed 103 --out d4.jsonl
"$B" match golad --a ab-v1 --b control --a-playouts 20000 $T --games 100 --jobs 2 --seed 104 --out d5.jsonl
"$B" match golad --a mcts-v1 --b ai3 --a-playouts 2000 --games 100 --jobs 2 --seed 105 --out d6.jsonl
# The shipped model: territory, rounds left and a side about to die (the cell-count inputs left
# out: with them the model predicts as well, and plays far worse; docs/golad-results.md).
"$B" ladderbot-lab golad train --records d1.jsonl d2.jsonl d3.jsonl d4.jsonl d5.jsonl d6.jsonl --holdout 5 --l2 0.0001 \
  --without material --without material_x_left --without log_ratio --without log_ratio_x_left \
  --without density --out value-v1.json
# The same with every input, for the comparison.
"$B" ladderbot-lab golad train --records d1.jsonl d2.jsonl d3.jsonl d4.jsonl d5.jsonl d6.jsonl --holdout 5 --l2 0.0001 \
  --out value-all.json
