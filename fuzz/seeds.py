#!/usr/bin/env python3
"""Writes the seed corpora fuzz/corpus/<target>/ from the repository's data.

    python3 fuzz/seeds.py [--records DIR] [--geister-openings FILE]

Sources (all in the repository, except the two options):
  riddles_engine_line  protocol/riddles-golad/transcripts/*.txt: the engine's
                       lines ("< ") and the bots' replies ("> "), one a file,
                       and each transcript's settings and first turn whole
  gat_server_line      protocol/gat-geister/transcripts/*_port*.txt: "< " lines
  gat_client_line      the same files' "> " lines and the server logs' lines
  ws_client_msg        protocol/ws-match-v1.md "C:" frames, plus one frame of
  ws_server_msg        each type the spec describes ("S:" for the server)
  record_line          DIR/*.jsonl: records written by `ladderbot match --out`
                       (one record a file; see fuzz/README.md for the runs)
  openings_four3d      openings/four3d.txt: the file, and each line alone
  openings_geister     FILE (made by `ladderbot openings geister`): the same
  profile_toml         bots/*.toml
  profile_env          .env.example's variables, and each bots/*.toml as
                       NAME=VALUE lines without the LADDERBOT_ prefix

Files are named by the SHA-1 of their content, as libFuzzer names its own, so
running this again adds nothing twice. Existing files are kept.
"""

import argparse
import ast
import glob
import hashlib
import os
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def riddles():
    for path in sorted(glob.glob(os.path.join(ROOT, "protocol/riddles-golad/transcripts/*.txt"))):
        if path.endswith("README.md"):
            continue
        engine, head = [], []
        for line in lines_of(path):
            if line.startswith("< "):
                engine.append(line[2:])
                put("riddles_engine_line", line[2:])
            elif line.startswith("> "):
                put("riddles_engine_line", line[2:])
        # The settings and the first turn, up to its `action move`: a view
        # folded to a move request.
        for line in engine:
            head.append(line)
            if line.startswith("action move"):
                break
        put("riddles_engine_line", "\n".join(head) + "\n")


def gat():
    base = os.path.join(ROOT, "protocol/gat-geister/transcripts")
    for path in sorted(glob.glob(os.path.join(base, "*_port*.txt"))):
        for line in lines_of(path):
            if line.startswith("< "):
                put("gat_server_line", ast.literal_eval(line[2:]))
            elif line.startswith("> "):
                put("gat_client_line", ast.literal_eval(line[2:]))
    for path in sorted(glob.glob(os.path.join(base, "*_serverlog.txt"))):
        for line in lines_of(path):
            if line.startswith("player=") and "," in line:
                put("gat_client_line", line.split(",", 1)[1] + "\r\n")


# One frame of each type the spec describes that its example session lacks.
EXTRA_CLIENT = [
    '{"type":"hello","protocol":1,"name":"bot","game":"geister","games":3,"opponent":"any","token":"s3cret"}',
    '{"type":"hello","protocol":1,"name":"a","game":"four3d"}',
    '{"type":"hello","protocol":1,"name":"a","game":"four3d","resume":{"game_id":"1a2-1","seat_token":"b9f969ea42959f21cb617cc4ed3811f9"}}',
    '{"type":"move","game_id":"g1","move":"SET:ABCD"}',
    '{"type":"move","game_id":"g1","move":"A,N"}',
    '{"type":"move","game_id":"g1","move":"birth 3,4 5,6 7,8"}',
    '{"type":"move","game_id":"g1","move":{"column":2,"rotation":1}}',
    '{"type":"leave"}',
    '{"type":"ping"}',
    '{"type":"pong","id":"x"}',
]
EXTRA_SERVER = [
    '{"type":"waiting","game":"four3d"}',
    '{"type":"welcome","protocol":1,"server":"ladderbot 0.1.0","games":["four3d","golad","geister","goofspiel","floodit","puyo"],"house":false}',
    '{"type":"game_start","game_id":"g","game":"geister","number":2,"of":3,"seat":1,"opponent":"bob","clock":{"time_per_move_ms":null,"time_bank_ms":5000,"increment_ms":0}}',
    '{"type":"move_request","game_id":"g","ply":0,"state":{"phase":"setup"},"your_time_ms":900,"remaining_ms":null,"time_per_move_ms":1000}',
    '{"type":"move_played","game_id":"g","ply":1,"seat":1,"move":null,"ms":3,"hidden":true}',
    '{"type":"game_over","game_id":"g","winner":null,"result":"1/2-1/2","reason":"timeout","detail":"seat 1 took 1200 ms","your_result":"draw","moves":12}',
    '{"type":"game_over","game_id":"g","winner":1,"result":"0-1","reason":"illegal_move","your_result":"loss","moves":3}',
    '{"type":"error","code":"heartbeat_timeout","message":"no frame for 20000 ms","fatal":true}',
    '{"type":"game_start","game_id":"g","game":"four3d","number":1,"of":1,"seat":0,"opponent":"o","clock":{"time_per_move_ms":2000,"time_bank_ms":null,"increment_ms":0},"seat_token":"b9f9","resumed":true}',
    '{"type":"error","code":"replaced","message":"another connection resumed this seat with its token","fatal":true}',
    '{"type":"ping","id":{"n":[1,2.5,null,true]}}',
    '{"type":"pong"}',
]


def ws():
    for line in lines_of(os.path.join(ROOT, "protocol/ws-match-v1.md")):
        if line.startswith("C: "):
            put("ws_client_msg", line[3:])
        elif line.startswith("S: "):
            put("ws_server_msg", line[3:])
    for f in EXTRA_CLIENT:
        put("ws_client_msg", f)
    for f in EXTRA_SERVER:
        put("ws_server_msg", f)


def records(d):
    for path in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
        for line in lines_of(path):
            if line.strip():
                put("record_line", line + "\n")


def openings(target, path):
    text = open(path, encoding="utf-8").read()
    put(target, text)
    for line in text.splitlines():
        put(target, line + "\n")


def env_lines(table, prefix=""):
    out = []
    for k, v in table.items():
        name = f"{prefix}{k}".upper()
        if isinstance(v, dict):
            out += env_lines(v, name + "__")
        elif isinstance(v, bool):
            out.append(f"{name}={str(v).lower()}")
        else:
            out.append(f"{name}={v}")
    return out


def profiles():
    for path in sorted(glob.glob(os.path.join(ROOT, "bots/*.toml"))):
        text = open(path, encoding="utf-8").read()
        put("profile_toml", text)
        put("profile_env", "\n".join(env_lines(tomllib.loads(text))) + "\n")
    example = os.path.join(ROOT, ".env.example")
    env = [l.lstrip("#") for l in lines_of(example) if l.lstrip("#").startswith("LADDERBOT_")]
    put("profile_env", "\n".join(env) + "\n")
    for l in env:
        put("profile_env", l + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", help="a directory of .jsonl records")
    ap.add_argument("--geister-openings", help="a Geister opening suite")
    a = ap.parse_args()
    riddles()
    gat()
    ws()
    profiles()
    openings("openings_four3d", os.path.join(ROOT, "openings/four3d.txt"))
    if a.records:
        records(a.records)
    if a.geister_openings:
        openings("openings_geister", a.geister_openings)
    for t in sorted(os.listdir(CORPUS)):
        n = len(os.listdir(os.path.join(CORPUS, t)))
        print(f"{t}: {n} files", file=sys.stderr)


if __name__ == "__main__":
    main()
