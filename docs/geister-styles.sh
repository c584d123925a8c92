#!/usr/bin/env bash
# Issue 60, item 1: the population of styles and the prior chosen for the worst of them.
# Makes the records (our own agents' games as in docs/geister-results.md, "The prior fitted on
# our own agents", at half the games; each scripted style against `rule` and against `best`),
# then fits the colour model with each style held out in turn and writes the prior whose worst
# held-out log loss is lowest. No game of Naotti-2020 or of any program outside this repository.
# Usage: bash docs/geister-styles.sh OUT_DIR    (about 10 minutes on 2 cores)
set -euo pipefail
out=${1:?usage: geister-styles.sh OUT_DIR}
cd "$(dirname "$0")/.."
cargo build --release --quiet
B=$PWD/target/release/ladderbot
mkdir -p "$out"
cd "$out"
m() { "$B" match geister "$@" --jobs 2 2>/dev/null | tail -n 1; }

# Our own agents (kept in every fit, never held out).
m --a rule --b dmc-v1 --games 200 --time-ms 20 --seed 41 --out own_rule_dmc.jsonl
m --a dmc-v1 --b dmc-v1 --games 150 --time-ms 15 --seed 46 --out own_dmc_dmc.jsonl
m --a charge --b dmc-v1 --games 150 --time-ms 15 --seed 47 --out own_charge_dmc.jsonl
S="--a best --a-param threads=1 --a-param beliefs=seed --a-param belief=0.15"
m $S --b rule --games 150 --time-ms 15 --seed 48 --out own_bs_rule.jsonl
m $S --b dmc-v1 --games 150 --time-ms 15 --seed 49 --out own_bs_dmc.jsonl
cat own_*.jsonl > own.jsonl

# Each style against rule and against best (first games: a fresh agent every game).
seed=600
for style in style-reds style-blues style-mixed style-corners random; do
  seed=$((seed + 1))
  m --a "$style" --b rule --games 150 --seed "$seed" --out "s_${style}_rule.jsonl"
  m --a "$style" --b best --b-param threads=1 --games 150 --time-ms 10 --seed "$seed" \
    --out "s_${style}_best.jsonl"
  cat "s_${style}_rule.jsonl" "s_${style}_best.jsonl" > "${style}.jsonl"
done

# Leave one style out; the styles' own colours are scored (`random` is named `random`).
"$B" ladderbot-lab geister beliefs --hold-out --keep own.jsonl \
  --train style-reds.jsonl --train style-blues.jsonl --train style-mixed.jsonl \
  --train style-corners.jsonl --train random.jsonl \
  --colours-of 'style-|B:random|A:random' --without slot_ --l2-choices 0.01,0.1,1,10 --out beliefs-styles.json
