#!/usr/bin/env bash
# Coverage-guided fuzzing of ladderbot's codecs and parsers (cargo-fuzz,
# libFuzzer). See fuzz/README.md.
#
#   fuzz/run.sh [-n RUNS] [TARGET...]
#
# Installs what it needs (the nightly toolchain, cargo-fuzz), builds every
# target once (optimized, with debug assertions and overflow checks, under
# AddressSanitizer), then runs each TARGET (default: all) for RUNS executions
# (default 1,000,000) from its seed corpus fuzz/corpus/TARGET (and the
# inputs kept in fuzz/found/TARGET, if any) with the
# dictionary fuzz/dict/TARGET.dict, and prints one line per target:
# executions, seconds, executions per second, the peak RSS libFuzzer
# measured, and the result. New inputs libFuzzer finds go to fuzz/work/TARGET
# (not committed), its output to fuzz/work/TARGET.log, and a crashing input
# to fuzz/artifacts/TARGET/. The exit status is 1 if any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

runs=1000000
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n|--runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
mkdir -p fuzz/work
failed=0
summary=()
for t in "${targets[@]}"; do
  work=fuzz/work/$t
  log=fuzz/work/$t.log
  mkdir -p "$work"
  dict=()
  if [ -f "fuzz/dict/$t.dict" ]; then dict=(-dict="$root/fuzz/dict/$t.dict"); fi
  found=()
  if [ -d "fuzz/found/$t" ]; then found=("$root/fuzz/found/$t"); fi
  echo "== $t: $runs executions"
  start=$(date +%s.%N)
  set +e
  cargo +nightly fuzz run "${flags[@]}" "$t" "$root/$work" "$root/fuzz/corpus/$t" "${found[@]}" -- \
    -runs="$runs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "${dict[@]}" >"$log" 2>&1
  status=$?
  set -e
  end=$(date +%s.%N)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  rate=$(awk -v n="${execs:-0}" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
  if [ "$status" -eq 0 ]; then
    result=ok
  else
    result="FAILED (exit $status; see $log)"
    failed=1
    grep -E "panicked at|SUMMARY|ERROR: libFuzzer|Test unit written to|==ERROR" "$log" | head -5 | sed 's/^/    /' || true
  fi
  line=$(printf '%-20s %9s execs %8s s %8s exec/s  peak RSS %5s MB  %s' \
    "$t" "${execs:-?}" "$secs" "$rate" "${rss:-?}" "$result")
  echo "$line"
  summary+=("$line")
done

echo "== summary ($runs executions asked per target; the time includes loading the corpus)"
printf '%s\n' "${summary[@]}"
exit "$failed"
