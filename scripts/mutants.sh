#!/usr/bin/env bash
# Mutation testing of the code whose faults lose games or records: the rules, the platform
# codecs, the records and the statistics. Each file is mutated by cargo-mutants (a mutant is one
# small change to one function: a flipped comparison, a constant, a body replaced by a default)
# and tested only by the tests that can reach it (the file's own unit tests, by a name filter on
# the library's test binary, and the integration test written for it), built without debug
# information (profile `mutants`): a mutant costs one incremental build of those test targets
# only (about 5 s) and one run of those tests. Mutants named in the exclusion list below are
# not run: each line says why it cannot matter.
#
#   scripts/mutants.sh [-s I/N] [-i] [-t] [-o DIR] [FILE...]
#
# FILE: files of the table below (default: all of them). -s I/N: only shard I of N of each file's
# mutants (round-robin, so a shard is a sample of the whole file; shards 0..N-1 together are all
# of it). -i: again after new tests, only the mutants the runs before in DIR did not catch.
# -t: run nothing, print the table of what DIR holds. -o DIR: where cargo-mutants writes
# (default target/mutants/<file>). Prints per file: mutants, excluded (by the list below),
# tested, caught, missed, timeouts, unviable, and the share caught of the viable ones (caught or
# timed out, of those that compile), from every run in
# DIR (DIR/<file>/status.json keeps each mutant's last outcome; a run without -i starts it
# afresh); the missed mutants of the last run are in DIR/<file>/mutants.out/missed.txt.
# Installs cargo-mutants and cargo-nextest (crates.io) when missing. Long: not run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."

shard=""
iterate=""
table_only=""
out=target/mutants
while getopts "s:ito:h" opt; do
  case $opt in
    s) shard=$OPTARG ;;
    i) iterate=1 ;;
    t) table_only=1 ;;
    o) out=$OPTARG ;;
    *) sed -n '2,22p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

# FILE | the test targets that can reach it | which of their tests, as a cargo-nextest filter: the
# library's tests of the file's own modules (by name) and the integration test written for it.
table() {
  cat <<'EOF'
src/games/golad/rules.rs|--lib --test golad_rules|test(/^games::golad::(rules|field|moves)::/) | binary(golad_rules)
src/games/golad/field.rs|--lib --test golad_rules|test(/^games::golad::(rules|field|moves)::/) | binary(golad_rules)
src/games/geister/rules.rs|--lib --test geister_rules|test(/^games::geister::(rules|game|view)::/) | binary(geister_rules)
src/games/four3d/bitboard.rs|--lib --test four3d_rules|test(/^games::four3d::(bitboard|lines|reference)::/) | binary(four3d_rules)
src/platforms/gat/codec.rs|--lib --test gat_transcripts|test(/^platforms::gat::/) | binary(gat_transcripts)
src/platforms/riddles/codec.rs|--lib|test(/^platforms::riddles::/)
src/platforms/ws/protocol.rs|--lib|test(/^platforms::ws::protocol::/)
src/records.rs|--lib|test(/^records::/)
src/runner/resume.rs|--lib --test resume|test(/^runner::resume::/) | binary(resume)
src/runner/merge.rs|--lib --test shards|test(/^runner::merge::/) | binary(shards)
src/runner/stats.rs|--lib|test(/^runner::stats::/)
EOF
}

# Mutants that cannot matter, each with why: a regex on cargo-mutants' name of a mutant
# ("FILE:LINE:COL: replace X with Y in FUNCTION"), written without line numbers where a pattern
# can say it, so that an edit elsewhere in the file keeps it right; a tab, then why.
exclusions() {
  cat <<'EOF'
golad/rules\.rs:.*replace (/ with [%*]|\* with \+) in <impl Game for GolState>::legal_moves	the births' count of pairs of own cells in legal_moves only sizes its Vec::with_capacity: a capacity changes an allocation, never the moves (its * as / divides by zero and is caught)
four3d/bitboard\.rs:.*replace \| with \^ in Board::(from_stones|occupied|drop_cells)	unions of sets that never overlap, where | and ^ are the same: the two seats' stones (from_stones refuses a shared cell before its union, play fills only an empty cell) and, in drop_cells, the occupied cells shifted up a layer and the bottom layer
four3d/bitboard\.rs:.*replace < with <= in <impl Game for Board>::is_legal	the peg < 16 guard only keeps the shift in range: legal_mask has no bit 16, so peg 16 is refused either way
geister/rules\.rs:.*replace \| with \^ in (Setup::from_reds|occupancy)\b	unions of bits that never overlap, where | and ^ are the same: from_reds sets bit i for piece i only, and a seat's pieces never share a square (the rules move onto no own piece, a GAT board with two pieces on one square is refused)
golad/field\.rs:\d+:35: replace \| with \^ in triple	triple's high bit is the majority of three bits, (a & r) | (c & (a | r)); with the inner | as ^ it is the other usual form of the majority (where a and r are both set, a & r already is): the same function. Column 35 is that inner |; the outer one as ^ is a real fault and is tested
golad/field\.rs:.*replace \| with \^ in Field::occupied_row	the players' rows never share a cell (from_rows refuses it, set clears both before it sets one): on disjoint sets | and ^ are the same
golad/field\.rs:\d+:38: replace \+ with \* in Field::step	column 38 is step's padded array lengths, HEIGHT + 2: as HEIGHT * 2 the arrays are longer, and only indices up to HEIGHT + 1 are used (as HEIGHT - 2 they are too short, which panics and is tested)
golad/field\.rs:(233:27: replace \| with \^|255:30: replace \^ with \||255:25: replace \^ with \||256:32: replace \| with \^|256:44: replace \^ with \||260:30: replace \^ with \||260:25: replace \^ with \||261:32: replace \| with \&|261:32: replace \| with \^|261:44: replace \^ with \||261:44: replace \^ with \&|262:32: replace \| with \^|270:30: replace \^ with \||270:25: replace \^ with \||272:30: replace \^ with \||272:25: replace \^ with \||274:53: replace \| with \^|275:53: replace \| with \^) in Field::step$	step's bit-sliced neighbour count: these 18 change a carry only where the count is already 4 or more (four_plus), player 0's count mod 4 only where no birth reads it, or a union of the players' disjoint rows; every_neighbourhood_steps_by_the_rules (all 3^9 colourings of a 3x3 block inside, on each edge and in each corner) passes with each of them, so they compute the same next field. Pinned by line:column: after an edit of step they show as missed again and are checked anew
stats\.rs:.*replace (\|\| with &&|> with ==|> with >=) in erf$	erf's n > 2000 guard never decides: below |x| = 6 (beyond, erf returns ±1 first) the series' terms fall under 1e-17 of the sum within about 200 terms, and terms that small added to the sum leave it unchanged, so ending later (&&) or at another count gives the same value
stats\.rs:\d+:(25: replace \|\| with &&|37: replace \|\| with &&|62: replace \* with /|69: replace \+ with [-*]|35: replace > with >=) in Sample::multiplier$	the stop of multiplier's bisection: it ends when the bracket is within EPSILON (relative) or when the float midpoint no longer moves; each of these mutants changes one stop and keeps the other, so λ comes out as close or closer (and at a slope of exactly 0, either end may move: the root stays bracketed). Pinned by column on that line
stats\.rs:\d+:(30: replace \|\| with &&|48: replace \|\| with &&|60: replace - with \+) in Sample::edge$	the stop of edge's bisection, as in multiplier: it ends when the bracket is within 1e-15 or when the float midpoint no longer moves; each mutant keeps the other stop, so the interval's end comes out as close or closer
stats\.rs:.*replace < with <= in Sample::slope$	slope returns an infinity only where a denominator 1 + λa is not positive, which needs a ≠ 0 (a = 0 gives 1): a < 0 and a <= 0 decide its sign alike
EOF
}

if ! command -v cargo-mutants >/dev/null 2>&1; then
  cargo install --locked cargo-mutants
fi
if ! command -v cargo-nextest >/dev/null 2>&1; then
  cargo install --locked cargo-nextest
fi

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(table | cut -d'|' -f1)
fi

# The exclusion list as cargo-mutants arguments.
excl=()
while IFS=$'\t' read -r re _why; do excl+=(--exclude-re "$re"); done < <(exclusions)

# The table line of FILE from every run in DIR: each mutant's last outcome (status.json, which a
# run without -i starts afresh and an -i run updates), less the mutants excluded now. MODE: run,
# again (-i) or table (-t).
summarize() {
  local f=$1 dir=$2 mode=$3 all kept
  all=$(cargo mutants --list -p ladderbot -f "$f" | wc -l)
  kept=$(cargo mutants --list -p ladderbot -f "$f" "${excl[@]}" | wc -l)
  python3 - "$f" "$dir" "$mode" "$(exclusions | cut -f1)" "$all" "$kept" <<'PY'
import json, os, re, sys
f, d, mode, excl = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
total, excluded = int(sys.argv[5]), int(sys.argv[5]) - int(sys.argv[6])
excl = [re.compile(e) for e in excl.splitlines() if e]
path = os.path.join(d, "status.json")
kept = json.load(open(path)) if mode != "run" and os.path.exists(path) else None
status = kept or {}
def fold(outcomes_json):
    if os.path.exists(outcomes_json):
        for r in json.load(open(outcomes_json))["outcomes"]:
            m = r["scenario"].get("Mutant") if isinstance(r["scenario"], dict) else None
            if m:
                status[m["name"]] = r["summary"]
if mode != "run" and kept is None:
    # A DIR written before status.json: the run before the last is in .old.
    fold(os.path.join(d, "mutants.out.old", "outcomes.json"))
if mode != "table" or kept is None:
    fold(os.path.join(d, "mutants.out", "outcomes.json"))
json.dump(status, open(path, "w"), indent=1, sort_keys=True)
n = {k: 0 for k in ("CaughtMutant", "MissedMutant", "Timeout", "Unviable")}
for name, s in status.items():
    if s in n and not any(e.search(name) for e in excl):
        n[s] += 1
tested = sum(n.values())
viable = n["CaughtMutant"] + n["MissedMutant"] + n["Timeout"]
share = 100.0 * (n["CaughtMutant"] + n["Timeout"]) / viable if viable else 0.0
print(f"{f:<34} {total:>7} {excluded:>8} {tested:>6} {n['CaughtMutant']:>6} {n['MissedMutant']:>6} {n['Timeout']:>8} {n['Unviable']:>8} {share:>7.1f}%")
PY
}

printf '%-34s %7s %8s %6s %6s %6s %8s %8s %8s\n' file mutants excluded tested caught missed timeouts unviable caught%
for f in "${files[@]}"; do
  line=$(table | grep -F "$f|" || true)
  if [ -z "$line" ]; then
    echo "mutants: $f is not in the table (scripts/mutants.sh)" >&2
    exit 2
  fi
  dir="$out/$(echo "$f" | tr '/' '_')"
  if [ -n "$table_only" ]; then
    if [ -f "$dir/status.json" ] || [ -f "$dir/mutants.out/outcomes.json" ]; then
      summarize "$f" "$dir" table
    fi
    continue
  fi
  rest=${line#*|}
  read -r -a targets <<<"${rest%%|*}"
  # The targets go to every cargo command (-C), so a mutant's build compiles and links only them;
  # given after `--` they reached only the test run and the build linked every test binary.
  cargo_args=()
  for t in "${targets[@]}"; do cargo_args+=(-C "$t"); done
  filter=${rest#*|}
  mkdir -p "$dir"
  extra=()
  [ -n "$shard" ] && extra+=(--shard "$shard" --sharding round-robin)
  [ -n "$iterate" ] && extra+=(--iterate)
  cargo mutants -p ladderbot -f "$f" "${excl[@]}" -o "$dir" \
    --test-tool nextest --profile mutants --no-shuffle --timeout-multiplier 3 "${cargo_args[@]}" "${extra[@]}" \
    -- -E "$filter" >"$dir/run.log" 2>&1 || true
  if [ ! -f "$dir/mutants.out/outcomes.json" ]; then
    echo "mutants: no outcomes for $f (see $dir/run.log)" >&2
    continue
  fi
  summarize "$f" "$dir" "$([ -n "$iterate" ] && echo again || echo run)"
done
