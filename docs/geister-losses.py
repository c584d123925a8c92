#!/usr/bin/env python3
"""How a player's Geister games were lost, from match records (JSON lines).

usage: python3 docs/geister-losses.py RECORDS.jsonl [PLAYER]

PLAYER is the player's name in the records (default `A:best`). Prints, for
the games PLAYER lost by taking the other side's fourth red, how far from
its exit the fourth red was taken and at which ply (both players counted,
from 0); then, over all games, the pieces each side took by colour in
20-ply buckets, and the results by the reds and blues PLAYER took. The
colours come from the records' setups (seat 0 moves first; every seat's
pieces A..H start at (1,4) (2,4) (3,4) (4,4) (1,5) (2,5) (3,5) (4,5) in its
own frame, facing north).
"""
import collections
import json
import sys

START = {'A': (1, 4), 'B': (2, 4), 'C': (3, 4), 'D': (4, 4),
         'E': (1, 5), 'F': (2, 5), 'G': (3, 5), 'H': (4, 5)}
STEP = {'N': (0, -1), 'S': (0, 1), 'E': (1, 0), 'W': (-1, 0)}


def captures(record):
    """(ply, capturing seat, captured colour, its distance from its exits)."""
    reds = [set(record['moves'][0][4:]), set(record['moves'][1][4:])]
    pos = [{}, {}]
    for p, (x, y) in START.items():
        pos[0][p] = (x, y)
        pos[1][p] = (5 - x, 5 - y)  # seat 1 in seat 0's frame
    out = []
    for ply, mv in enumerate(record['moves'][2:]):
        s = ply % 2
        piece, d = mv.split(',')
        dx, dy = STEP[d[0]]
        if s == 1:
            dx, dy = -dx, -dy
        x, y = pos[s][piece]
        to = (x + dx, y + dy)
        if not (0 <= to[0] < 6 and 0 <= to[1] < 6):
            break  # an escape ends the game
        o = 1 - s
        exits = [(0, 0), (5, 0)] if o == 0 else [(0, 5), (5, 5)]
        for q, at in list(pos[o].items()):
            if at == to:
                colour = 'R' if q in reds[o] else 'B'
                dist = min(abs(to[0] - a) + abs(to[1] - b) for a, b in exits)
                out.append((ply, s, colour, dist))
                del pos[o][q]
        pos[s][piece] = to
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    who = sys.argv[2] if len(sys.argv) > 2 else 'A:best'
    records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    fourth = collections.Counter()
    plies = []
    buckets = collections.Counter()
    results = collections.Counter()
    for r in records:
        if r.get('game') != 'geister' or who not in r['players']:
            continue
        me = r['players'].index(who)
        caps = captures(r)
        ours = [c for c in caps if c[1] == me]
        for ply, s, colour, _ in caps:
            buckets[(ply // 20 * 20, 'us' if s == me else 'them', colour)] += 1
        result = 'draw' if r['winner'] is None else ('win' if r['winner'] == me else 'loss')
        took = (sum(c[2] == 'R' for c in ours), sum(c[2] == 'B' for c in ours))
        results[(result,) + took] += 1
        reds = [c for c in ours if c[2] == 'R']
        if result == 'loss' and r.get('ending') == 'reds_captured' and len(reds) >= 4:
            fourth[reds[3][3]] += 1
            plies.append(reds[3][0])
    print(f'{who}: losses by taking the fourth red: {sum(fourth.values())}')
    for d in sorted(fourth):
        print(f'  fourth red taken {d} steps from its exit: {fourth[d]}')
    if plies:
        plies.sort()
        q = lambda f: plies[min(len(plies) - 1, int(f * len(plies)))]
        print(f'  ply of the fourth red: quartiles {q(0.25)}, {q(0.5)}, {q(0.75)}')
    print('pieces taken by ply (reds / blues): us | them')
    for b in sorted({k[0] for k in buckets}):
        print(f'  {b:3}-{b + 19:3}: {buckets[(b, "us", "R")]:4} / {buckets[(b, "us", "B")]:3}'
              f' | {buckets[(b, "them", "R")]:4} / {buckets[(b, "them", "B")]:3}')
    print('results by (reds, blues) we took:')
    for k in sorted(results):
        print(f'  {k[0]:4} {k[1]} reds {k[2]} blues: {results[k]}')


if __name__ == '__main__':
    main()
