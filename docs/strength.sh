#!/usr/bin/env bash
# Reproduces the worked examples of docs/strength.md: for Score Four, GOLAD and Puyo, the losses of
# a match analysed (`ladderbot analyze`), a short SPSA run (`ladderbot tune`) and its SPRT screening
# at the same short time control (`ladderbot match --sprt`). Everything lands in OUT (default
# strength-out/); each step prints its report.
# Usage: bash docs/strength.sh [OUT]   (about 30 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B=$PWD/target/release/ladderbot
OUT=${1:-strength-out}
rm -rf "$OUT"
mkdir -p "$OUT"
cd "$OUT"
step() { echo "== $*"; }

# ---------------------------------------------------------------- Score Four
step "four3d: ab-v1 against best at 10 ms a move, 40 games from the shipped openings"
"$B" match four3d --a ab-v1 --b best --games 40 --time-ms 10 --jobs 2 \
  --openings "$OLDPWD/openings/four3d.txt" --seed 41 --out four3d-games.jsonl
step "four3d: where were they lost? best at 200 ms a position, the solver from 26 empty cells"
"$B" analyze four3d-games.jsonl --time-ms 200 --jobs 2 --out four3d-analysed.jsonl \
  --html four3d-analysis.html | tail -n 5
step "four3d: tune ab-v1's threat weights (good, bad, stacked) at 10 ms, 400 games"
"$B" tune four3d --agent ab-v1 --param good --param bad --param stacked --time-ms 10 --games 400 \
  --openings "$OLDPWD/openings/four3d.txt" --r-end 0.05 --seed 42 --out four3d-tune
step "four3d: screen the tuned profile against ab-v1 by SPRT at 10 ms"
"$B" match four3d --a-profile four3d-tune/tuned.toml --b ab-v1 --time-ms 10 --games 800 --jobs 2 \
  --openings "$OLDPWD/openings/four3d.txt" --opening-order random --sprt 0,20 --seed 43

# ---------------------------------------------------------------- GOLAD
step "golad: ab-v1 against best at 20 ms a move, 20 games"
"$B" match golad --a ab-v1 --b best --games 20 --time-ms 20 --jobs 2 --seed 51 --out golad-games.jsonl
step "golad: where were they lost or drawn? best at 100 ms a position"
"$B" analyze golad-games.jsonl --time-ms 100 --jobs 2 --out golad-analysed.jsonl \
  --html golad-analysis.html | tail -n 5
step "golad: tune best's territory weights (w0..w3) at 10 ms, 200 games"
"$B" tune golad --agent best --param w0 --param w1 --param w2 --param w3 --time-ms 10 --games 200 \
  --r-end 0.05 --seed 52 --out golad-tune
step "golad: screen the tuned profile against best by SPRT at 10 ms"
"$B" match golad --a-profile golad-tune/tuned.toml --b best --time-ms 10 --games 300 --jobs 2 \
  --sprt 0,20 --seed 53

# ---------------------------------------------------------------- Puyo
step "puyo: combined against best at 10 ms a move, 20 duels"
"$B" match puyo --a combined --b best --games 20 --time-ms 10 --jobs 2 --seed 61 --out puyo-games.jsonl
step "puyo: where were they lost? best at 100 ms a position, random playouts where it gives no value"
"$B" analyze puyo-games.jsonl --time-ms 100 --jobs 2 --out puyo-analysed.jsonl \
  --html puyo-analysis.html | tail -n 5
step "puyo: tune best's link and shape weights on the solo chain, 100 runs"
"$B" tune puyo --agent best --objective solo --param w_link --param w_shape --games 100 \
  --r-end 0.05 --seed 62 --out puyo-tune
step "puyo: the tuned weights against the defaults on the solo chain, 100 sequences each"
params=$(sed -n '/^\[agent_params\]/,$p' puyo-tune/tuned.toml | grep ' = ' | sed 's/ = /=/' | sed 's/^/--param /' | tr '\n' ' ')
# shellcheck disable=SC2086
"$B" ladderbot-lab puyo solo --agent best --sequences 100 --seed 1000 $params
"$B" ladderbot-lab puyo solo --agent best --sequences 100 --seed 1000
step "puyo: screen the tuned profile against best in duels by SPRT at 10 ms"
"$B" match puyo --a-profile puyo-tune/tuned.toml --b best --time-ms 10 --games 200 --jobs 2 \
  --sprt 0,20 --seed 63
