#!/usr/bin/env python3
"""Independent sanity check of the gnubg fixtures (standard library only).

This is NOT the project's engine and must not be used as a reference: it is a
deliberately small, separate backgammon move generator used once to check
that the fixtures are self-consistent before they are handed over:

* every turn of selfplay.nrd / resigned.nrd can be played in the written
  order, each step taking an unused die, and ends in a position that the
  roll allows under the must-play rule (a turn with no moves only where
  nothing can be played); every ``*`` marks a real hit and every hit is marked;
* every complete game ends with the winner's 15th checker off and its Result
  (oin/mars/koks) matches the final position; every resigned game is
  unfinished and ends with the loser's ``resigns``;
* for every line of hints.jsonl, the plays gnubg listed are pairwise
  distinct end positions, each is legal, and their number equals the number
  of distinct legal end positions.

Usage:  python3 tools/gnubg/selfcheck.py   (exit 0 when everything agrees)
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

Board = tuple[int, ...]  # 26 entries: [0] borne off, [1..24] points, [25] bar
Pos = tuple[Board, Board]  # (side to move, opponent), each in its own numbering

ROOT = Path(__file__).resolve().parents[2]
FIX = Path(os.environ.get("GNUBG_FIXTURES", str(ROOT / "fixtures" / "gnubg")))


def start_board() -> Board:
    b = [0] * 26
    b[24], b[13], b[8], b[6] = 2, 5, 3, 5
    return tuple(b)


def step(pos: Pos, src: int, die: int) -> tuple[Pos, bool] | None:
    """Move one checker from src (25 = bar) by die; None if illegal. Returns (pos, hit)."""
    me, opp = list(pos[0]), list(pos[1])
    if me[src] == 0:
        return None
    if me[25] and src != 25:
        return None
    dst = src - die
    if dst <= 0:
        if any(me[p] for p in range(7, 26)):
            return None
        if dst < 0 and any(me[p] for p in range(src + 1, 7)):
            return None
        dst = 0
    hit = False
    if dst > 0:
        o = 25 - dst
        if opp[o] >= 2:
            return None
        if opp[o] == 1:
            opp[o] = 0
            opp[25] += 1
            hit = True
    me[src] -= 1
    me[dst] += 1
    return (tuple(me), tuple(opp)), hit


def legal_ends(pos: Pos, dice: tuple[int, int]) -> set[Pos]:
    """All end positions allowed by the roll (must-play rule)."""
    seqs = [[dice[0]] * 4] if dice[0] == dice[1] else [[dice[0], dice[1]], [dice[1], dice[0]]]
    found: dict[Pos, tuple[int, int]] = {}  # end -> (dice used, largest single die used)

    def rec(p: Pos, rest: list[int], used: list[int]) -> None:
        moved = False
        if rest:
            for src in range(25, 0, -1):
                r = step(p, src, rest[0])
                if r is not None:
                    moved = True
                    rec(r[0], rest[1:], [*used, rest[0]])
        if not moved:
            key = (len(used), max(used, default=0))
            if p not in found or found[p] < key:
                found[p] = key

    for s in seqs:
        rec(pos, s, [])
    best = max(found.values())
    n_max = best[0]
    ends = {p for p, k in found.items() if k[0] == n_max}
    if n_max == 1 and dice[0] != dice[1]:
        hi = max(k[1] for p, k in found.items() if k[0] == 1)
        ends = {p for p, k in found.items() if k[0] == 1 and k[1] == hi}
    return ends


def swap(pos: Pos) -> Pos:
    return pos[1], pos[0]


def outcome(winner: Board, loser: Board) -> str:
    if loser[0] > 0:
        return "oin"
    if loser[25] or any(loser[p] for p in range(19, 25)):
        return "koks"
    return "mars"


MOVE_RE = re.compile(r"^(bar|\d+)((?:/(?:\d+|off)\*?)+)(?:\((\d)\))?$")


def parse_point(s: str) -> int:
    return 25 if s == "bar" else 0 if s == "off" else int(s)


def parse_moves(tokens: list[str]) -> list[tuple[int, int, bool]]:
    """Expand 'a/b*/c(2)' into single segments (from, to, marked-hit)."""
    out: list[tuple[int, int, bool]] = []
    for t in tokens:
        m = MOVE_RE.match(t)
        if not m:
            raise ValueError(f"cannot read move {t!r}")
        segs = []
        cur = parse_point(m.group(1))
        for part in m.group(2).split("/")[1:]:
            star = part.endswith("*")
            nxt = parse_point(part.rstrip("*"))
            segs.append((cur, nxt, star))
            cur = nxt
        out.extend(segs * int(m.group(3) or 1))
    return out


def play_written(pos: Pos, dice: tuple[int, int], tokens: list[str]) -> Pos:
    """Play the written single-die steps in order; raise if impossible."""
    segs = parse_moves(tokens)
    pool = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]

    def rec(p: Pos, i: int, left: list[int]) -> Pos | None:
        if i == len(segs):
            return p
        src, dst, star = segs[i]
        for d in sorted(set(left)):
            if src - d != dst and not (dst == 0 and src - d < 0):
                continue
            r = step(p, src, d)
            if r is None or r[1] != star:
                continue
            rest = list(left)
            rest.remove(d)
            res = rec(r[0], i + 1, rest)
            if res is not None:
                return res
        return None

    end = rec(pos, 0, pool)
    if end is None:
        raise ValueError(f"cannot play {' '.join(tokens)!r} with {dice} in the written order")
    return end


def apply_play_string(pos: Pos, play: str) -> Pos:
    """Apply a gnubg hint play (from/to segments, possibly several pips each)."""
    me, opp = list(pos[0]), list(pos[1])
    for src, dst, _star in parse_moves(play.split()):
        if me[src] == 0:
            raise ValueError(f"{play}: no checker on {src}")
        me[src] -= 1
        me[dst] += 1
        if dst > 0 and opp[25 - dst] == 1:
            opp[25 - dst] = 0
            opp[25] += 1
    return tuple(me), tuple(opp)


TAG_RE = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


def read_nrd(path: Path) -> list[tuple[dict[str, str], list[str]]]:
    games: list[tuple[dict[str, str], list[str]]] = []
    tags: dict[str, str] = {}
    body: list[str] = []
    in_tags = False
    for line in path.read_text(encoding="utf-8").splitlines():
        m = TAG_RE.match(line.strip())
        if m:
            if not in_tags:
                if tags:
                    games.append((tags, body))
                tags, body, in_tags = {}, [], True
            tags[m.group(1)] = m.group(2)
        else:
            in_tags = False
            body.extend(line.split())
    if tags:
        games.append((tags, body))
    return games


def check_game(
    tags: dict[str, str],
    tokens: list[str],
    resigned_file: bool,
    before: list[tuple[int, Pos]] | None = None,
) -> None:
    """Verify one game; append (side to move, position) before each turn to ``before``."""
    pos: Pos = (start_board(), start_board())
    side = 0  # 0 white to move
    i = 0
    resigned = False
    while i < len(tokens):
        t = tokens[i]
        if re.fullmatch(r"\d+\.", t):
            i += 1
            continue
        if t in ("W", "B") and i + 1 < len(tokens) and tokens[i + 1] == "resigns":
            if "WB".index(t) != side:
                raise ValueError("resigns by the side not to move")
            resigned = True
            i += 2
            if i != len(tokens):
                raise ValueError("actions after resigns")
            break
        j = i + 1
        while j < len(tokens) and not re.fullmatch(r"\d+\.|[1-6][1-6]:|[WB]", tokens[j]):
            j += 1
        if before is not None and pos[0][0] != 15 and pos[1][0] != 15:
            before.append((side, pos))
        pos = play_turn(pos, t, tokens[i + 1 : j])
        side = 1 - side
        i = j
    check_result(tags["Result"], pos, side, resigned=resigned, resigned_file=resigned_file)


def play_turn(pos: Pos, t: str, moves: list[str]) -> Pos:
    """The position after the turn ``t`` (its dice) with ``moves``, from the next side's
    view; ValueError for an illegal one."""
    m = re.fullmatch(r"([1-6])([1-6]):", t)
    if not m:
        raise ValueError(f"unexpected token {t!r}")
    dice = (int(m.group(1)), int(m.group(2)))
    if dice[0] < dice[1]:
        raise ValueError("dice not higher first")
    if pos[0][0] == 15 or pos[1][0] == 15:
        raise ValueError("move after the end of the game")
    ends = legal_ends(pos, dice)
    end = play_written(pos, dice, moves) if moves else pos
    if end not in ends:
        raise ValueError(f"turn {t} {' '.join(moves)} is not a legal play (must-play rule)")
    return swap(end)


def check_result(result: str, pos: Pos, side: int, *, resigned: bool, resigned_file: bool) -> None:
    """The Result tag against the final position (``side``: the side to move)."""
    mover_prev = swap(pos)  # (side that just moved, other)
    if resigned_file:
        if not resigned:
            raise ValueError("resigned game without resigns")
        if mover_prev[0][0] == 15:
            raise ValueError("resigned game is actually finished")
        loser = "white" if side == 0 else "black"
        if result.split()[0] == loser:
            raise ValueError("Result names the resigning side as winner")
        return
    if resigned or mover_prev[0][0] != 15:
        raise ValueError("game not finished")
    winner = "black" if side == 0 else "white"
    expect = f"{winner} {outcome(mover_prev[0], mover_prev[1])}"
    if result != expect:
        raise ValueError(f"Result {result!r} but final position gives {expect!r}")


def pos_from_json(d: dict[str, object]) -> Pos:
    def board(side: dict[str, int]) -> list[int]:
        b = [0] * 26
        for k, v in side.items():
            b[25 if k == "bar" else int(k)] = v
        b[0] = 15 - sum(b)
        return b

    turn = d["turn"]
    w = board(d["white"])  # type: ignore[arg-type]
    b = board(d["black"])  # type: ignore[arg-type]
    return (tuple(w), tuple(b)) if turn == "white" else (tuple(b), tuple(w))


def check_hint(h: dict[str, Any], replay: dict[str, list[tuple[int, Pos]]]) -> None:
    """One gnubg hint: its position is the record's, its plays are exactly the legal ones."""
    pos = pos_from_json(h["position"])
    hi, lo = sorted(h["dice"], reverse=True)
    dice = (int(hi), int(lo))
    ends = legal_ends(pos, dice)
    plays = h["plays"]
    src = re.fullmatch(r"(.+ game \d+) turn (\d+)", h["source"])
    if src:  # the position must be the one reached in the .nrd record
        turns = replay.get(src.group(1), [])
        t = int(src.group(2))
        if not 1 <= t <= len(turns):
            raise ValueError("source names no turn of a game in the .nrd files")
        side, want = turns[t - 1]
        if h["position"]["turn"] != ("white", "black")[side] or want != pos:
            raise ValueError("position differs from the .nrd game at that turn")
    elif "opening" not in h.get("features", []) or pos != (start_board(), start_board()):
        raise ValueError("hint without a game source")
    if not plays:
        if ends != {pos}:
            raise ValueError("no plays listed but a play exists")
        return
    got = [apply_play_string(pos, p) for p in plays]
    if len(set(got)) != len(got):
        raise ValueError("two plays reach the same position")
    if set(got) != ends:
        raise ValueError(
            f"{len(plays)} plays listed, {len(ends)} legal end positions; "
            f"{len(set(got) - ends)} listed plays not legal"
        )


def main() -> int:
    errors = 0
    replay: dict[str, list[tuple[int, Pos]]] = {}  # Source tag -> positions before each turn
    for name, res in (("selfplay.nrd", False), ("resigned.nrd", True)):
        games = read_nrd(FIX / name)
        for k, (tags, tokens) in enumerate(games, 1):
            try:
                before: list[tuple[int, Pos]] = []
                replay[tags["Source"]] = before
                check_game(tags, tokens, res, before)
            except ValueError as e:
                errors += 1
                print(f"{name} game {k} ({tags.get('Source')}): {e}")
        print(f"{name}: {len(games)} games checked")
    n = 0
    hints = FIX / "hints.jsonl"
    lines = hints.read_text(encoding="utf-8").splitlines() if hints.exists() else []
    for line in lines:
        n += 1
        h = json.loads(line)
        try:
            check_hint(h, replay)
        except ValueError as e:
            errors += 1
            print(f"hints.jsonl line {n} ({h.get('source')}): {e}")
    print(f"hints.jsonl: {n} positions checked")
    print("OK" if not errors else f"{errors} problems")
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main())
