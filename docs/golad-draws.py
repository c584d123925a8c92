#!/usr/bin/env python3
"""Issue 48's look at the draws: reads `ladderbot analyze --out` records of referee games
(`referee golad --out`) and says, for each side's draws, how high the reference valued that side's
position before its moves, at which round that peak came, and whether the reference preferred the
move played there.

    python3 docs/golad-draws.py analysed.jsonl [--lead 0.75] [--list]
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
    listing = "--list" in args
    args = [a for a in args if a != "--list"]
    results = Counter()
    draws = {"A": [], "B": []}
    for g in games:
        a = 0 if g["players"][0].startswith("A:") else 1
        w = g.get("winner")
        results["draw" if w is None else ("win" if w == a else "loss")] += 1
        if w is not None or not g.get("analysis"):
            continue
        for side, seat in (("A", a), ("B", 1 - a)):
            ours = [v for v in g["analysis"]["values"] if v["seat"] == seat and v.get("before") is not None]
            if not ours:
                continue
            peak = max(ours, key=lambda v: v["before"])
            by_ply = {v["ply"]: v for v in ours}
            held = [v for v in ours if v["before"] >= lead]
            draws[side].append(
                {
                    "id": g["id"],
                    "peak": round(peak["before"], 3),
                    "peak_round": peak["ply"] // 2 + 1,
                    "played": g["moves"][peak["ply"]],
                    "preferred": peak.get("best"),
                    "moves_at_lead": len(held),
                    "lost_at_lead": round(
                        sum(v["before"] - v["after"] for v in held if v.get("after") is not None), 3
                    ),
                    # What the opponent's replies took back: the side's value after its
                    # move minus its value before its next one.
                    "lost_on_replies": round(
                        sum(
                            v["after"] - by_ply[v["ply"] + 2]["before"]
                            for v in held
                            if v.get("after") is not None and v["ply"] + 2 in by_ply
                        ),
                        3,
                    ),
                    "first_lead_round": held[0]["ply"] // 2 + 1 if held else None,
                    "last_lead_round": held[-1]["ply"] // 2 + 1 if held else None,
                }
            )
    print(f"games {sum(results.values())}: A {results['win']} wins, {results['draw']} draws, {results['loss']} losses")
    for side, ds in draws.items():
        with_lead = [d for d in ds if d["peak"] >= lead]
        print(f"side {side}: {len(ds)} analysed draws; valued >= {lead} before one of its moves in {len(with_lead)}")
        if with_lead:
            first = sorted(d["first_lead_round"] for d in with_lead)
            last = sorted(d["last_lead_round"] for d in with_lead)
            moves = sorted(d["moves_at_lead"] for d in with_lead)
            same = sum(1 for d in with_lead if d["preferred"] == d["played"])
            print(f"  first round at the lead: median {first[len(first) // 2]}, range {first[0]}-{first[-1]}; "
                  f"last: median {last[len(last) // 2]}, range {last[0]}-{last[-1]}")
            print(f"  its moves at the lead: median {moves[len(moves) // 2]}, range {moves[0]}-{moves[-1]}")
            print(f"  at the peak the reference preferred the move played in {same} of {len(with_lead)}")
            lost = sorted(d["lost_at_lead"] for d in with_lead)
            print(f"  value its moves at the lead gave away (before - after, summed): median {lost[len(lost) // 2]}, "
                  f"range {lost[0]}-{lost[-1]}")
            back = sorted(d["lost_on_replies"] for d in with_lead)
            print(f"  value the opponent's replies took back (summed): median {back[len(back) // 2]}, "
                  f"range {back[0]}-{back[-1]}")
        for lo, hi in [(0.9, 1.01), (0.75, 0.9), (0.6, 0.75), (0.0, 0.6)]:
            k = sum(1 for d in ds if lo <= d["peak"] < hi)
            print(f"  peak value in [{lo}, {min(hi, 1.0)}): {k}")
        if listing:
            for d in ds:
                print("  " + json.dumps(d))


if __name__ == "__main__":
    main()
