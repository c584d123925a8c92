#!/usr/bin/env bash
# The deadline campaign: every game over its real platform at 100 ms a move,
# while both cores (every core `nproc` counts) are kept busy by another
# program, `yes > /dev/null` (GNU coreutils), one per core, started here.
# For each game it plays until at least MOVES moves were answered, then prints
# the timeouts, the moves over 100 ms, and p50/p99/p99.9/max on the server's
# (or the referee's) clock. Exit 1 if any of these happened:
#   - a game lost on time, by an illegal move or by a disconnection, or
#     aborted; a client (or a GOLAD bot) that failed or crashed;
#   - fewer answers than MOVES (a game that stopped early);
#   - GOLAD: an answer over the limit on the referee's clock, an illegal
#     answer, a forced pass in the bots' logs (`forced pass`: the fallback
#     when a search fails, or overruns with no move ready, quick and always
#     legal, so it would hide a bot that cannot search in time; a search
#     that overruns with a move ready answers it, and is counted), or more passes than one a game
#     for each bot (`best` may pass on a last move that changes nothing; the
#     `pass` agent passes every time);
#   - with -j MS: a move over MS ms. The servers' own clocks stay at 100 ms,
#     and a move over 100 ms ends its game as a timeout there, so at the
#     default judge of 100 ms the timeouts are the check for those games.
#
#   scripts/deadline-campaign.sh [-l] [-m MOVES] [-b BINARY] [-o DIR] [-n] [-p on|off] [-j MS] [-a AGENT] [GAME...]
#
#   -l         the long mode: 10,000 moves per game, every bot pondering
#              (-m 10000 -p on; a later -m or -p overrides it); 46-48
#              minutes for all five games on two cores
#   -m MOVES   moves per game (default 2000)
#   -b BINARY  the ladderbot binary (default target/release/ladderbot)
#   -o DIR     where records and logs go (default a new temporary folder)
#   -n         no load (for a baseline on an idle machine)
#   -p on|off  every bot thinks on the opponent's time (on) or not (off),
#              whatever its profile says (LADDERBOT_SEARCH__PONDER); CI runs -p on
#   -j MS      judge answers against MS instead of 100 (the clocks stay at 100 ms;
#              a stricter MS shows that the judging can fail)
#   -a AGENT   the agent of both GOLAD bots instead of golad-best's (CI runs
#              `-a pass golad` and requires the campaign to fail on it)
#   GAME       golad four3d floodit puyo geister (default: all five)
#
# GOLAD: `referee golad` between two `play golad --stdio --profile golad-best`
# (the default 100 ms cap; bank 10000 ms, +100 ms a move), its answer times
# as the referee measures them (request written to reply read).
# Score Four, Flood-It, Puyo: `serve --time-per-move-ms 100` with two `play`
# clients (the game's best profile), `move_ms` of the server's records.
# Geister: `serve-gat` with two `play geister --time-ms 100` clients, the
# records' `move_ms` (the setups left out); the GAT rule itself is 10 s.
set -euo pipefail

MOVES=2000
BIN=target/release/ladderbot
OUT=""
LOAD=1
JUDGE=""
GOLAD_AGENT=""
while getopts "lm:b:o:np:j:a:" opt; do
    case $opt in
        l) MOVES=10000; export LADDERBOT_SEARCH__PONDER=true ;;
        m) MOVES=$OPTARG ;;
        b) BIN=$OPTARG ;;
        o) OUT=$OPTARG ;;
        n) LOAD=0 ;;
        p) case $OPTARG in
               on) export LADDERBOT_SEARCH__PONDER=true ;;
               off) export LADDERBOT_SEARCH__PONDER=false ;;
               *) echo "-p: on or off" >&2; exit 2 ;;
           esac ;;
        j) JUDGE=$OPTARG ;;
        a) GOLAD_AGENT=$OPTARG ;;
        *) sed -n '2,/^set -euo/p' "$0" | grep '^#'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
GAMES=("$@")
[ ${#GAMES[@]} -gt 0 ] || GAMES=(golad four3d floodit puyo geister)
BIN=$(realpath "$BIN")
[ -x "$BIN" ] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/ladderbot-deadline.XXXXXX)
mkdir -p "$OUT"
cd "$(dirname "$0")/.."   # the profiles in bots/

PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

if [ "$LOAD" = 1 ]; then
    for _ in $(seq "$(nproc)"); do
        yes > /dev/null &
        PIDS+=($!)
    done
    echo "load: $(nproc) x 'yes > /dev/null' (pids ${PIDS[*]})"
fi
echo "pondering: ${LADDERBOT_SEARCH__PONDER:-as each profile says}"

FAILED=0
LIMIT=100
JUDGE=${JUDGE:-$LIMIT}

# Moves recorded so far in a records file.
moves_in() {
    [ -s "$1" ] || { echo 0; return; }
    "$BIN" latency "$1" --skip "$2" --json | sed 's/.*"moves":\([0-9]*\).*/\1/'
}

report() { # game, records, skip
    local line
    line=$("$BIN" latency "$2" --skip "$3" --limit-ms "$JUDGE")
    echo "$1: $line"
    # Each game not ended by the rules, with the server's detail (a timeout
    # says how long the server held the request before writing it).
    python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("reason") not in (None, "rules"):
        print("  %s: %s (%s)" % (r.get("id"), r.get("reason"), r.get("detail")))' "$2"
    "$BIN" latency "$2" --skip "$3" --limit-ms "$JUDGE" --json | python3 -c '
import json, sys
t = json.load(sys.stdin)
bad = [k for k in ("timeouts", "illegal", "disconnects", "aborted", "over_limit") if t[k] > 0]
if t["moves"] < int(sys.argv[2]):
    bad.append("only %d moves of %s" % (t["moves"], sys.argv[2]))
if bad:
    print("%s: FAILED: %s" % (sys.argv[1], ", ".join(bad)))
    sys.exit(1)' "$1" "$MOVES" || FAILED=1
}

# Waits for every pid given; 1 if any failed.
wait_all() {
    local rc=0 p
    for p in "$@"; do
        wait "$p" || rc=1
    done
    return $rc
}

# What a server printed after `listening on ` (waits up to 10 s).
listening() { # stdout file, game
    local at=""
    for _ in $(seq 100); do
        at=$(sed -n 's/^listening on //p' "$1")
        [ -n "$at" ] && { echo "$at"; return; }
        sleep 0.1
    done
    echo "$2: the server did not start" >&2
    exit 1
}

serve_game() { # game, profile, games per batch
    local game=$1 profile=$2 batch=$3
    local rec="$OUT/$game.jsonl" log="$OUT/$game-serve.log"
    : > "$rec"
    "$BIN" serve --bind 127.0.0.1:0 --time-per-move-ms "$LIMIT" --records "$rec" \
        --house-agent "" > "$OUT/$game-serve.out" 2> "$log" &
    local server=$!
    local url
    url=$(listening "$OUT/$game-serve.out" "$game")
    while [ "$(moves_in "$rec" 0)" -lt "$MOVES" ]; do
        for side in a b; do
            # Every answer's time on the client's own clock goes to its log
            # (`ladderbot::answers`), beside its warnings.
            LADDERBOT_LOG__FILTER="warn,ladderbot::answers=debug" \
            "$BIN" play "$game" --profile "$profile" --server "$url" --opponent any \
                --games "$batch" --name "$game-$side" --seed "$RANDOM" \
                >> "$OUT/$game-$side.out" 2>> "$OUT/$game-$side.log" &
            PIDS+=($!)
        done
        wait_all "${PIDS[@]: -2}" || { echo "$game: a client failed (see $OUT/$game-*.log)" >&2; FAILED=1; break; }
    done
    kill -TERM "$server"; wait "$server" || true
    # Where a late move was late: the clients log an answer they wrote after the
    # move's time on their own clock (from the request's arrival); a timeout
    # without such a line was late in transit or on the server.
    cat "$OUT/$game"-[ab].log | python3 -c '
import re, sys
took = sorted(float(m.group(1)) for m in re.finditer(r"took_ms=([0-9.]+)", sys.stdin.read()))
late = sum(1 for t in took if t >= 100)
q = lambda p: took[min(len(took) - 1, int(p * len(took)))] if took else float("nan")
print("%s: %d answers written after 100 ms on the clients'"'"' own clocks (from the request'"'"'s arrival to the answer'"'"'s writing: %d answers, p99 %.1f ms, max %.1f ms)" % (
    sys.argv[1], late, len(took), q(0.99), took[-1] if took else float("nan")))' "$game"
    report "$game" "$rec" 0
}

for game in "${GAMES[@]}"; do
    case $game in
    golad)
        bot="$BIN play golad --stdio --profile golad-best"
        [ -z "$GOLAD_AGENT" ] || bot="$bot --agent $GOLAD_AGENT"
        # MOVES counts the answers of both bots (as the servers' records count both
        # sides' moves); a game has up to 200, at least 150 are counted on, in pairs
        # of games so that each bot plays each seat.
        games=$(( (MOVES + 299) / 300 * 2 ))
        # The bots log at info: each answer, and any forced pass (`forced pass: ...`).
        LADDERBOT_LOG__FILTER=info "$BIN" referee golad --bot "$bot" --bot "$bot" --games "$games" --json \
            --bot-stderr "$OUT/golad-bots.log" > "$OUT/golad.json" 2> "$OUT/golad-referee.log" \
            || { echo "golad: the referee failed (see $OUT/golad-referee.log)" >&2; FAILED=1; }
        forced=$(grep -c 'forced pass' "$OUT/golad-bots.log" || true)
        # A search that overran but had a move ready answers it (counted, not a failure:
        # the referee's clock below judges whether the answer came in time).
        late=$(grep -c 'answering its best move so far' "$OUT/golad-bots.log" || true)
        tail -n 1 "$OUT/golad.json" | python3 -c '
import json, sys
t = json.load(sys.stdin)
answers = t["answers"] + t["b_answers"]
worst = max(t["max_latency_ms"], t["b_max_latency_ms"])
forced = int(sys.argv[3])
total = lambda k: t[k] + t["b_" + k]
late = int(sys.argv[4])
print("golad: %d games, %d answers, %d timeouts, %d illegal, %d passes (%d forced), %d late searches answered with their ready move, %d crashes; answer time on the referee'"'"'s clock: p99 %.1f/%.1f ms, p99.9 %.1f/%.1f ms, max %.1f/%.1f ms (A/B)" % (
    t["games"], answers, total("timeouts"), total("illegal_moves"), total("passes"), forced, late,
    total("crashes"), t["p99_latency_ms"], t["b_p99_latency_ms"],
    t["p999_latency_ms"], t["b_p999_latency_ms"], t["max_latency_ms"], t["b_max_latency_ms"]))
bad = []
for k in ("timeouts", "illegal_moves", "crashes"):
    if total(k) > 0:
        bad.append("%d %s" % (total(k), k.replace("_", " ")))
# `best` may pass on a last move that changes nothing; a bot that passes more than once a game
# is not playing.
if total("passes") > 2 * t["games"]:
    bad.append("%d passes in %d games" % (total("passes"), t["games"]))
if forced > 0:
    bad.append("%d forced passes in the bots'"'"' logs" % forced)
if worst > float(sys.argv[2]):
    bad.append("an answer took %.1f ms" % worst)
if answers < int(sys.argv[1]):
    bad.append("only %d answers" % answers)
if bad:
    print("golad: FAILED: " + ", ".join(bad))
    sys.exit(1)' "$MOVES" "$JUDGE" "$forced" "$late" || FAILED=1
        ;;
    four3d) serve_game four3d four3d-best 10 ;;
    floodit) serve_game floodit floodit-best 10 ;;
    puyo) serve_game puyo puyo-best 2 ;;
    geister)
        rec="$OUT/geister.jsonl"
        : > "$rec"
        "$BIN" serve-gat --ports 0,0 --out "$rec" > "$OUT/geister-serve.out" 2> "$OUT/geister-serve.log" &
        server=$!
        ports=$(listening "$OUT/geister-serve.out" geister)
        while [ "$(moves_in "$rec" 2)" -lt "$MOVES" ]; do
            i=0
            for port in ${ports//,/ }; do
                "$BIN" play geister --profile geister-best --time-ms "$LIMIT" \
                    --server "127.0.0.1:$port" --games 5 --seed "$RANDOM" \
                    >> "$OUT/geister-$i.out" 2>> "$OUT/geister-$i.log" &
                PIDS+=($!)
                i=$((i + 1))
            done
            wait_all "${PIDS[@]: -2}" || { echo "geister: a client failed (see $OUT/geister-*.log)" >&2; FAILED=1; break; }
        done
        kill -TERM "$server"; wait "$server" || true
        report geister "$rec" 2
        ;;
    *) echo "unknown game $game" >&2; exit 2 ;;
    esac
done
echo "records and logs: $OUT"
if [ "$FAILED" = 0 ]; then
    echo "deadline campaign: ok (no timeout, no answer over $JUDGE ms)"
else
    echo "deadline campaign: FAILED (see the lines above: a timeout, an illegal move, a pass, a disconnection, an answer over $JUDGE ms, or a failed client)"
fi
exit $FAILED
