"""Legal-play lists from gnubg's ``hint``, run INSIDE GNU Backgammon's embedded Python.

Do not run this with a normal Python interpreter: it needs the ``gnubg`` module
that only exists inside ``gnubg -t -p``.  Use ``tools/gnubg/hints.sh``.

For every .mat file in fixtures/gnubg/mat/ the match is imported into gnubg
(``import mat``), positions are picked from its games (stratified: dances,
rolls where only part of the dice can be played, entering from the bar,
bear-offs, doubles, other positions), gnubg is navigated to the position
before that turn (so gnubg itself sets up board and dice; the position is
checked against the position ID stored in the move record) and
``gnubg.hint(100000)`` lists every legal play (at 0-ply gnubg evaluates every
play, one per distinct resulting position).  The result goes to
fixtures/gnubg/hints.jsonl, one JSON object per line.

Environment variables (all optional):
  GNUBG_MAT_DIR    input .mat files (default: fixtures/gnubg/mat)
  GNUBG_HINTS_OUT  output file (default: fixtures/gnubg/hints.jsonl)
"""

import glob
import json
import os
import random
from typing import Any

import gnubg  # type: ignore[import-not-found]  # provided by gnubg itself

MAT_DIR = os.environ.get("GNUBG_MAT_DIR", "fixtures/gnubg/mat")
OUT = os.environ.get("GNUBG_HINTS_OUT", "fixtures/gnubg/hints.jsonl")
SEED = 20240601

# category -> how many positions to take (a position is counted in the first
# category of this list that it has)
QUOTA = [
    ("dance", 15),
    ("partial", 40),
    ("bar", 50),
    ("bearoff", 50),
    ("doubles", 45),
    ("other", 100),
]

SETUP = [
    "set display off",
    "set threads 1",
    "set player 0 human",
    "set player 1 human",
    "set evaluation chequerplay evaluation plies 0",
]


def features(board, dice, move):
    """board = (opponent, mover), each 25 ints in own numbering, [24] = bar."""
    mover = board[1]
    f = []
    if len(move) == 0:
        f.append("dance")
    elif len(move) < (4 if dice[0] == dice[1] else 2):
        f.append("partial")
    if mover[24] > 0:
        f.append("bar")
    if sum(mover[6:25]) == 0:
        f.append("bearoff")
    if dice[0] == dice[1]:
        f.append("doubles")
    return f


def side_dict(b):
    d = {}
    for i in range(24):
        if b[i]:
            d[str(i + 1)] = b[i]
    if b[24]:
        d["bar"] = b[24]
    return d


def normalise_play(s):
    """gnubg prints bar/off already; map the numeric forms just in case."""
    toks = []
    for mv in s.split():
        head, *rest = mv.split("/")
        if head == "25":
            head = "bar"
        new_rest = []
        for p in rest:
            core = p
            suffix = ""
            for ch in ("*", "("):
                k = core.find(ch)
                if k >= 0:
                    core, suffix = core[:k], core[k:] + suffix
                    break
            if core == "0":
                core = "off"
            new_rest.append(core + suffix)
        toks.append("/".join([head, *new_rest]))
    return " ".join(toks)


def load(path):
    gnubg.command(f"import mat {path}")
    return gnubg.match()


def candidates(name, m):
    out = []
    for gi, g in enumerate(m["games"]):
        recs = g["game"]
        moves = [r for r in recs if r["action"] == "move"]
        if not moves:
            continue
        first = moves[0]["player"]
        turn = 0
        for ri, r in enumerate(recs):
            if r["action"] != "move":
                continue
            turn += 1
            if ri == 0:
                continue  # the opening roll: gnubg has no dice set before it when navigating
            board = gnubg.positionfromid(r["board"])
            f = features(board, r["dice"], r["move"])
            out.append(
                {
                    "file": name,
                    "game": gi,
                    "rec": ri,
                    "turn": turn,
                    "colour": "white" if r["player"] == first else "black",
                    "posid": r["board"],
                    "dice": tuple(r["dice"]),
                    "features": f,
                }
            )
    return out


def select(cands):
    rng = random.Random(SEED)
    seen = set()
    chosen = []
    pools: dict[Any, list[Any]] = {c: [] for c, _ in QUOTA}
    for c in cands:
        key = (c["posid"], tuple(sorted(c["dice"])))
        cat = next((q for q, _ in QUOTA if q in c["features"]), "other")
        c["key"] = key
        pools[cat].append(c)
    for cat, n in QUOTA:
        pool = pools[cat]
        rng.shuffle(pool)
        for c in pool:
            if n == 0:
                break
            if c["key"] in seen:
                continue
            seen.add(c["key"])
            chosen.append(c)
            n -= 1
    chosen.sort(key=lambda c: (c["file"], c["game"], c["rec"]))
    return chosen


def hint_at(c):
    gnubg.navigate()
    if c["game"]:
        gnubg.navigate(game=c["game"])
    gnubg.navigate(next=c["rec"])
    info = gnubg.posinfo()
    if gnubg.positionid() != c["posid"]:
        raise RuntimeError(f"navigation mismatch (position) at {c!r}")
    if tuple(sorted(info["dice"], reverse=True)) != tuple(sorted(c["dice"], reverse=True)):
        raise RuntimeError(f"navigation mismatch (dice) at {c!r}")
    board = gnubg.board()
    try:
        h = gnubg.hint(100000)
        plays = [normalise_play(x["move"]) for x in h["hint"]]
    except Exception:  # gnubg refuses to hint when there is no legal play
        if "dance" not in c["features"]:
            raise
        plays = []
    if "dance" in c["features"] and plays:
        raise RuntimeError(f"dance with plays at {c!r}")
    mover, opp = board[1], board[0]
    colour = c["colour"]
    other = "black" if colour == "white" else "white"
    f = list(c["features"])
    if any("*" in p for p in plays):
        f.append("hit")
    if not f:
        f.append("contact")
    return {
        "position": {
            "variant": "short",
            "turn": colour,
            colour: side_dict(mover),
            other: side_dict(opp),
        },
        "dice": sorted(c["dice"], reverse=True),
        "plays": plays,
        "source": f"{c['file']} game {c['game'] + 1} turn {c['turn']}",
        "features": sorted(f),
    }


def opening_hints():
    """The 15 possible opening rolls from the starting position."""
    gnubg.command("set rng mersenne")
    gnubg.command("set seed 1")
    gnubg.command("new match 1")  # human players: rolls the opening roll and waits
    start = {"6": 5, "8": 3, "13": 5, "24": 2}
    out = []
    for hi in range(2, 7):
        for lo in range(1, hi):
            gnubg.command(f"set dice {hi} {lo}")
            board = gnubg.board()
            if side_dict(board[0]) != start or side_dict(board[1]) != start:
                raise RuntimeError("not the starting position")
            plays = [normalise_play(x["move"]) for x in gnubg.hint(100000)["hint"]]
            f = ["opening"] + (["hit"] if any("*" in p for p in plays) else [])
            out.append(
                {
                    "position": {
                        "variant": "short",
                        "turn": "white",
                        "white": dict(start),
                        "black": dict(start),
                    },
                    "dice": [hi, lo],
                    "plays": plays,
                    "source": f"opening position (gnubg new match, set dice {hi} {lo})",
                    "features": f,
                }
            )
    return out


def main():
    for cmd in SETUP:
        gnubg.command(cmd)
    files = sorted(glob.glob(os.path.join(MAT_DIR, "*.mat")))
    cands = []
    for path in files:
        cands.extend(candidates(os.path.basename(path), load(path)))
    chosen = select(cands)
    results = []
    for path in files:
        name = os.path.basename(path)
        mine = [c for c in chosen if c["file"] == name]
        if not mine:
            continue
        load(path)
        for c in mine:
            results.append(hint_at(c))
    results = opening_hints() + results
    with open(OUT, "w", encoding="utf-8") as fh:
        for r in results:
            pos = r["position"]
            ordered = {
                "position": {
                    "variant": "short",
                    "turn": pos["turn"],
                    "white": pos["white"],
                    "black": pos["black"],
                },
                "dice": r["dice"],
                "plays": r["plays"],
                "source": r["source"],
                "features": r["features"],
            }
            fh.write(json.dumps(ordered) + "\n")
    counts: dict[Any, int] = {}
    for r in results:
        for f in r["features"]:
            counts[f] = counts.get(f, 0) + 1
    print(
        f"HINTS {len(results)} positions (15 openings + {len(results) - 15} picked"
        f" from {len(cands)} candidates) -> {OUT} {sorted(counts.items())}"
    )


main()
