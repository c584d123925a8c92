#!/usr/bin/env bash
# Coverage-guided fuzzing of ladderbot's codecs and parsers (cargo-fuzz,
# libFuzzer). See fuzz/README.md.
#
#   fuzz/run.sh [-n RUNS | -t SECONDS] [-j JOBS] [TARGET...]
#
# Installs what it needs (the nightly toolchain, cargo-fuzz), builds every
# target once (optimized, with debug assertions and overflow checks, under
# AddressSanitizer), then runs each TARGET (default: all) for RUNS executions
# (default 1,000,000), or for SECONDS of wall time with -t (the long mode:
# -t 600 is ten minutes a target), JOBS targets at a time (default 1; -j 2
# keeps both cores of a two-core machine busy), from its seed corpus
# fuzz/corpus/TARGET (and the
# inputs kept in fuzz/found/TARGET, if any) with the
# dictionary fuzz/dict/TARGET.dict, and prints one line per target:
# executions, seconds, executions per second, the peak RSS libFuzzer
# measured, the corpus it ended with (seeds + found + new inputs), and the
# result. New inputs libFuzzer finds go to fuzz/work/TARGET
# (not committed), its output to fuzz/work/TARGET.log, and a crashing input
# to fuzz/artifacts/TARGET/. The exit status is 1 if any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

runs=1000000
seconds=
jobs=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n|--runs) runs=$2; shift 2 ;;
    -t|--time) seconds=$2; shift 2 ;;
    -j|--jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

# --- what it needs -----------------------------------------------------------
if ! command -v rustup >/dev/null 2>&1; then
  echo "rustup is needed (https://rustup.rs)" >&2; exit 2
fi
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi

# One build for all targets, with the flags every run below uses.
flags=(--release --debug-assertions)
echo "== building the fuzz targets (cargo +nightly fuzz build ${flags[*]})"
cargo +nightly fuzz build "${flags[@]}"

# --- the runs ----------------------------------------------------------------
if [ -n "$seconds" ]; then
  limit=(-runs=-1 -max_total_time="$seconds")
  asked="$seconds s"
else
  limit=(-runs="$runs")
  asked="$runs executions"
fi
mkdir -p fuzz/work

# One target: runs libFuzzer, then writes its summary line to fuzz/work/TARGET.result.
run_one() {
  local t=$1 work=fuzz/work/$1 log=fuzz/work/$1.log
  mkdir -p "$work"
  local dict=() found=()
  if [ -f "fuzz/dict/$t.dict" ]; then dict=(-dict="$root/fuzz/dict/$t.dict"); fi
  if [ -d "fuzz/found/$t" ]; then found=("$root/fuzz/found/$t"); fi
  echo "== $t: $asked"
  local start end status
  start=$(date +%s.%N)
  set +e
  cargo +nightly fuzz run "${flags[@]}" "$t" "$root/$work" "$root/fuzz/corpus/$t" "${found[@]}" -- \
    "${limit[@]}" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "${dict[@]}" >"$log" 2>&1
  status=$?
  set -e
  end=$(date +%s.%N)
  local execs rss secs rate corpus result
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  rate=$(awk -v n="${execs:-0}" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
  # libFuzzer's last "#N ... corp: FILES/SIZE" line: the corpus in memory at the end.
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | sed 's/corp: //')
  if [ "$status" -eq 0 ]; then
    result=ok
  else
    result="FAILED (exit $status; see $log)"
    grep -E "panicked at|SUMMARY|ERROR: libFuzzer|Test unit written to|==ERROR" "$log" | head -5 | sed 's/^/    /' || true
  fi
  printf '%-20s %10s execs %7s s %8s exec/s  peak RSS %5s MB  corpus %11s  %s\n' \
    "$t" "${execs:-?}" "$secs" "$rate" "${rss:-?}" "${corpus:-?}" "$result" | tee "fuzz/work/$t.result"
  [ "$status" -eq 0 ]
}

failed=0
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run_one "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done

echo "== summary ($asked asked per target, $jobs at a time; the time includes loading the corpus)"
for t in "${targets[@]}"; do cat "fuzz/work/$t.result"; done
exit "$failed"
