#!/usr/bin/env python3
"""Issue 48's look at the draws: reads `ladderbot analyze --out` records of referee games
(`referee golad --out`) and says, for side A's draws, how high the reference valued A's position
before A's moves, at which round that peak came, and what the reference preferred there.

    python3 docs/golad-draws.py analysed.jsonl [--lead 0.75]
"""
import json
import sys
from collections import Counter


def main():
    args = sys.argv[1:]
    lead = 0.75
    if "--lead" in args:
        i = args.index("--lead")
        lead = float(args[i + 1])
        del args[i : i + 2]
    if not args:
        sys.exit(__doc__)
    games = []
    for path in args:
        with open(path) as f:
            games += [json.loads(line) for line in f if line.strip()]
    results = Counter()
    draws = []
    for g in games:
        a = 0 if g["players"][0].startswith("A:") else 1
        w = g.get("winner")
        results["draw" if w is None else ("win" if w == a else "loss")] += 1
        if w is not None or not g.get("analysis"):
            continue
        ours = [v for v in g["analysis"]["values"] if v["seat"] == a and v.get("before") is not None]
        if not ours:
            continue
        peak = max(ours, key=lambda v: v["before"])
        low = min(ours, key=lambda v: v["before"])
        held = [v for v in ours if v["before"] >= lead]
        draws.append(
            {
                "id": g["id"],
                "peak": peak["before"],
                "peak_round": peak["ply"] // 2 + 1,
                "played": g["moves"][peak["ply"]],
                "preferred": peak.get("best"),
                "low": low["before"],
                "moves_at_lead": len(held),
                "first_lead_round": held[0]["ply"] // 2 + 1 if held else None,
                "last_lead_round": held[-1]["ply"] // 2 + 1 if held else None,
                "end": ours[-1]["before"],
            }
        )
    print(f"games {sum(results.values())}: A {results['win']} wins, {results['draw']} draws, {results['loss']} losses")
    n = len(draws)
    with_lead = [d for d in draws if d["peak"] >= lead]
    print(f"analysed draws {n}; A valued >= {lead} before one of its moves in {len(with_lead)}")
    if with_lead:
        rounds = sorted(d["first_lead_round"] for d in with_lead)
        print(f"  first round at the lead: median {rounds[len(rounds) // 2]}, range {rounds[0]}-{rounds[-1]}")
        moves = sorted(d["moves_at_lead"] for d in with_lead)
        print(f"  A's moves at the lead: median {moves[len(moves) // 2]}, range {moves[0]}-{moves[-1]}")
        same = sum(1 for d in with_lead if d["preferred"] == d["played"])
        print(f"  at the peak the reference preferred A's own move in {same} of {len(with_lead)}")
    for band in [(0.9, 1.01), (0.75, 0.9), (0.6, 0.75), (0.0, 0.6)]:
        k = sum(1 for d in draws if band[0] <= d["peak"] < band[1])
        print(f"  peak value in [{band[0]}, {min(band[1], 1.0)}): {k}")
    ends = sorted(d["end"] for d in draws)
    if ends:
        print(f"  value before A's last move: median {ends[len(ends) // 2]:.2f}")
    for d in draws:
        print(json.dumps(d))


if __name__ == "__main__":
    main()
