#!/usr/bin/env bash
# Reproduces docs/geister-results.md. Prints one JSON line per measurement.
# Usage: bash docs/geister-results.sh > geister-results.jsonl    (about 75 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B=target/release/ladderbot

# The seed's rule agent against the two baselines, in-process (seats alternated).
"$B" match geister --a rule --b random --games 400 --seed 1 --json 2>/dev/null | tail -n 1
"$B" match geister --a rule --b charge --games 400 --seed 1 --json 2>/dev/null | tail -n 1
# The same pairing over real TCP through a GAT server (the same games for the same seed).
"$B" match geister --a rule --b random --games 400 --seed 1 --over-gat --json 2>/dev/null | tail -n 1

# A full rule vs rule session through serve-gat and two play clients, as on the real platform.
out=$(mktemp -d)
"$B" serve-gat --ports 10600,10601 --games 50 --out "$out/games.jsonl" >"$out/server.txt" 2>/dev/null &
server=$!
sleep 1
"$B" play geister --server 127.0.0.1:10600 --agent rule --games 50 --seed 1 >"$out/a.txt" 2>/dev/null &
"$B" play geister --server 127.0.0.1:10601 --agent rule --games 50 --seed 2 >"$out/b.txt" 2>/dev/null
wait
python3 - "$out/games.jsonl" <<'EOF'
import collections, json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
print(json.dumps({"session": "rule vs rule over serve-gat", "records": len(records),
                  "results": collections.Counter(r["result"] for r in records),
                  "endings": collections.Counter(r.get("ending") for r in records)}))
EOF
rm -rf "$out"

# dmc-v1 (best before issue 11) at 100 ms per move against rule, random and charge.
"$B" match geister --a dmc-v1 --b rule --games 400 --time-ms 100 --jobs 2 --seed 1 --json 2>/dev/null | tail -n 1
"$B" match geister --a dmc-v1 --b random --games 100 --time-ms 100 --jobs 2 --seed 1 --json 2>/dev/null | tail -n 1
"$B" match geister --a dmc-v1 --b charge --games 100 --time-ms 100 --jobs 2 --seed 1 --json 2>/dev/null | tail -n 1

# best (issue 11) in sessions (--keep-agents: it learns game after game) through serve-gat's code,
# against dmc-v1 and rule. The runs against the sparring partner need its binary: see the doc.
"$B" match geister --a best --b dmc-v1 --over-gat --keep-agents --games 200 --jobs 1 --seed 12 --time-ms 100 --json 2>/dev/null | tail -n 1
"$B" match geister --a best --b rule --over-gat --keep-agents --games 200 --jobs 1 --seed 13 --time-ms 100 --json 2>/dev/null | tail -n 1
# Against the sparring partner Naotti-2020 (not in the repository; docs/geister-results.md says how to build it):
# NAO="sh -c 'echo 1 {port} {host} 5 | exec /path/to/naotti'"
# "$B" match geister --a best --b-cmd "$NAO" --over-gat --keep-agents --games 200 --jobs 1 --seed 11 --time-ms 100 --json | tail -n 1
