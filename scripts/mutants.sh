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
#   scripts/mutants.sh [-s I/N] [-i] [-o DIR] [FILE...]
#
# FILE: files of the table below (default: all of them). -s I/N: only shard I of N of each file's
# mutants (round-robin, so a shard is a sample of the whole file; shards 0..N-1 together are all
# of it). -i: again after new tests, only the mutants the last run in DIR did not catch (those
# it caught are counted from its list). -o DIR: where cargo-mutants writes (default
# target/mutants/<file>). Prints per file: mutants, caught, missed, timeouts, unviable, and the
# share caught of the viable ones; the missed mutants are listed in
# DIR/<file>/mutants.out/missed.txt. Installs cargo-mutants and cargo-nextest (crates.io) when
# missing. Long: not run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."

shard=""
iterate=""
out=target/mutants
while getopts "s:io:h" opt; do
  case $opt in
    s) shard=$OPTARG ;;
    i) iterate=1 ;;
    o) out=$OPTARG ;;
    *) sed -n '2,20p' "$0"; exit 2 ;;
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
# ("FILE:LINE:COL: replace X with Y in FUNCTION"), written without line numbers so that an edit
# elsewhere in the file keeps it right; a tab, then why.
exclusions() {
  cat <<'EOF'
impl (Debug|Display)	how a value prints in a log or a panic message: no rule, codec or record reads it
golad/rules\.rs:.*replace [*/] with [-+*/%] in <impl Game for GolState>::legal_moves	the only products and quotients in legal_moves size its Vec::with_capacity: a capacity changes an allocation, never the moves
four3d/bitboard\.rs:.*replace \| with \^ in Board::(from_stones|occupied|drop_cells)	unions of sets that never overlap, where | and ^ are the same: the two seats' stones (from_stones refuses a shared cell before its union, play fills only an empty cell) and, in drop_cells, the occupied cells shifted up a layer and the bottom layer
four3d/bitboard\.rs:.*replace < with <= in <impl Game for Board>::is_legal	the peg < 16 guard only keeps the shift in range: legal_mask has no bit 16, so peg 16 is refused either way
geister/rules\.rs:.*replace \| with \^ in (Setup::from_reds|occupancy)\b	unions of bits that never overlap, where | and ^ are the same: from_reds sets bit i for piece i only, and a seat's pieces never share a square (the rules move onto no own piece, a GAT board with two pieces on one square is refused)
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

printf '%-34s %8s %7s %7s %9s %9s %8s\n' file mutants caught missed timeouts unviable caught%
for f in "${files[@]}"; do
  line=$(table | grep -F "$f|" || true)
  if [ -z "$line" ]; then
    echo "mutants: $f is not in the table (scripts/mutants.sh)" >&2
    exit 2
  fi
  rest=${line#*|}
  read -r -a targets <<<"${rest%%|*}"
  # The targets go to every cargo command (-C), so a mutant's build compiles and links only them;
  # given after `--` they reached only the test run and the build linked every test binary.
  cargo_args=()
  for t in "${targets[@]}"; do cargo_args+=(-C "$t"); done
  filter=${rest#*|}
  dir="$out/$(echo "$f" | tr '/' '_')"
  mkdir -p "$dir"
  extra=()
  [ -n "$shard" ] && extra+=(--shard "$shard" --sharding round-robin)
  [ -n "$iterate" ] && extra+=(--iterate)
  excl=()
  while IFS=$'\t' read -r re _why; do excl+=(--exclude-re "$re"); done < <(exclusions)
  cargo mutants -p ladderbot -f "$f" "${excl[@]}" -o "$dir" \
    --test-tool nextest --profile mutants --no-shuffle --timeout-multiplier 3 "${cargo_args[@]}" "${extra[@]}" \
    -- -E "$filter" >"$dir/run.log" 2>&1 || true
  json="$dir/mutants.out/outcomes.json"
  if [ ! -f "$json" ]; then
    echo "mutants: no outcomes for $f (see $dir/run.log)" >&2
    continue
  fi
  python3 - "$f" "$json" <<'PY'
import json, os, sys
f, path = sys.argv[1], sys.argv[2]
o = json.load(open(path))
n = {k: 0 for k in ("CaughtMutant", "MissedMutant", "Timeout", "Unviable")}
for r in o["outcomes"]:
    s = r.get("summary")
    if s in n:
        n[s] += 1
# An -i run tests only what the last run did not catch; what it caught is listed.
prev = os.path.join(os.path.dirname(path), "previously_caught.txt")
if os.path.exists(prev):
    n["CaughtMutant"] += sum(1 for line in open(prev) if line.strip())
viable = n["CaughtMutant"] + n["MissedMutant"] + n["Timeout"]
share = 100.0 * (n["CaughtMutant"] + n["Timeout"]) / viable if viable else 0.0
total = sum(n.values())
print(f"{f:<34} {total:>8} {n['CaughtMutant']:>7} {n['MissedMutant']:>7} {n['Timeout']:>9} {n['Unviable']:>9} {share:>7.1f}%")
PY
done
