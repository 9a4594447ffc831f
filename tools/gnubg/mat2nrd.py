#!/usr/bin/env python3
"""Convert GNU Backgammon / Jellyfish ``.mat`` match files to ``.nrd`` records.

Standalone (standard library only, does not import the project's engine).

Usage (from the repository root)::

    python3 tools/gnubg/mat2nrd.py                  # fixtures/gnubg/mat/*.mat
    python3 tools/gnubg/mat2nrd.py --out-dir DIR FILE.mat ...

Writes ``selfplay.nrd`` (games played to the last checker) and ``resigned.nrd``
(games that gnubg ended by resignation) into the output directory
(default ``fixtures/gnubg``).

Mapping (see tools/gnubg/README.md):

* ``.mat`` line ``N) <left player's turn> <right player's turn>``; a turn is
  ``DD: moves``; ``25`` is the bar and ``0`` is off, both in the mover's own
  numbering, which is the project's convention too.  ``25`` -> ``bar``,
  ``0`` -> ``off``; everything else (order, ``*`` hits) is kept as gnubg wrote it.
* A roll with no legal play is written by gnubg as the dice alone (``64:``)
  and stays so.
* Whoever moves first in a game is White in that game (names follow).
* ``Wins N point(s)``: 1 = oin, 2 = mars, 3 = koks.  The .mat format does not
  record resignations: a game whose winner has not borne off 15 checkers was
  resigned by the loser (who is then the side to move); it goes to
  resigned.nrd with ``W resigns`` / ``B resigns`` as the last action and a
  ``[GnubgPoints "N"]`` tag.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

# Column where the right-hand player's turn starts in gnubg's .mat export
# (" 12) " + 28 columns for the left turn).  A turn starting left of this
# threshold belongs to the left-hand player.
RIGHT_COLUMN_THRESHOLD = 20

DICE_RE = re.compile(r"(?<!\S)([1-6])([1-6]):(?=\s|$)")
MOVE_LINE_RE = re.compile(r"^\s*(\d+)\)(.*)$")
GAME_RE = re.compile(r"^\s*Game\s+(\d+)\s*$")
PLAYERS_RE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
WINS_RE = re.compile(r"\bWins\s+(\d+)\s+points?\b")
STEP_RE = re.compile(r"^(\d+)/(\d+)(\*?)(?:\((\d)\))?$")

RESULT_WORD = {1: "oin", 2: "mars", 3: "koks"}
SIDE_NAME = ("white", "black")
SIDE_LETTER = ("W", "B")


class MatError(ValueError):
    pass


@dataclass
class Turn:
    player: int  # 0 = left column (.mat player 1), 1 = right column
    dice: tuple[int, int]  # higher die first
    moves: list[str]  # as written by gnubg (numbers, e.g. "25/22*")
    line: int


@dataclass
class MatGame:
    number: int
    names: tuple[str, str]
    turns: list[Turn] = field(default_factory=list)
    winner: int | None = None
    points: int | None = None


def _game_start(line: str, lineno: int, filename: str, number: int) -> MatGame:
    p = PLAYERS_RE.match(line)
    if not p:
        raise MatError(f"{filename}:{lineno}: expected player line after 'Game {number}'")
    return MatGame(number=number, names=(p.group(1), p.group(3)))


def parse_mat(text: str, filename: str = "<mat>") -> list[MatGame]:
    games: list[MatGame] = []
    current: MatGame | None = None
    pending_number: int | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        m = GAME_RE.match(line)
        if m:
            pending_number = int(m.group(1))
            current = None
            continue
        if pending_number is not None:
            current = _game_start(line, lineno, filename, pending_number)
            games.append(current)
            pending_number = None
            continue
        if current is None:
            continue  # match header such as " 25 point match"
        w = WINS_RE.search(line)
        if w:
            if current.winner is not None:
                raise MatError(f"{filename}:{lineno}: second result line in game {current.number}")
            current.winner = 0 if w.start() < RIGHT_COLUMN_THRESHOLD else 1
            current.points = int(w.group(1))
            continue
        m = MOVE_LINE_RE.match(line)
        if not m:
            raise MatError(f"{filename}:{lineno}: unrecognised line: {line!r}")
        if current.winner is not None:
            raise MatError(f"{filename}:{lineno}: move after the result of game {current.number}")
        current.turns.extend(_line_turns(line, lineno, filename))
    _check_games(games, filename)
    return games


def _line_turns(line: str, lineno: int, filename: str) -> list[Turn]:
    """The one or two turns of a move line."""
    dice = list(DICE_RE.finditer(line))
    if not dice or len(dice) > 2:
        raise MatError(f"{filename}:{lineno}: expected one or two turns: {line!r}")
    turns = []
    for k, d in enumerate(dice):
        end = dice[k + 1].start() if k + 1 < len(dice) else len(line)
        # two turns: left then right; one turn: its column tells whose it is
        left = d.start() < RIGHT_COLUMN_THRESHOLD
        player = k if len(dice) == 2 else (0 if left else 1)
        hi, lo = sorted((int(d.group(1)), int(d.group(2))), reverse=True)
        moves = line[d.end() : end].split()
        for mv in moves:
            if not STEP_RE.match(mv):
                raise MatError(f"{filename}:{lineno}: cannot read move {mv!r}")
        turns.append(Turn(player=player, dice=(hi, lo), moves=moves, line=lineno))
    return turns


def _check_games(games: list[MatGame], filename: str) -> None:
    for g in games:
        if g.winner is None or g.points is None:
            raise MatError(f"{filename}: game {g.number} has no result line")
        for a, b in zip(g.turns, g.turns[1:], strict=False):
            if a.player == b.player:
                raise MatError(f"{filename}:{b.line}: game {g.number}: same player on roll twice")


def convert_move(move: str) -> str:
    m = STEP_RE.match(move)
    if not m:
        raise MatError(f"cannot read move {move!r}")
    src, dst, hit, rep = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    if not (1 <= src <= 25 and 0 <= dst <= 24 and dst < src):
        raise MatError(f"move {move!r} out of range")
    text = ("bar" if src == 25 else str(src)) + "/" + ("off" if dst == 0 else str(dst)) + hit
    if rep:
        text += f"({rep})"
    return text


def borne_off(game: MatGame, player: int) -> int:
    n = 0
    for t in game.turns:
        if t.player != player:
            continue
        for mv in t.moves:
            m = STEP_RE.match(mv)
            assert m is not None
            if int(m.group(2)) == 0:
                n += int(m.group(4) or 1)
    return n


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass
class NrdGame:
    text: str
    resigned: bool


def _resigned(game: MatGame, colour: dict[int, int], source_name: str) -> bool:
    """Whether the game ended by resignation (the winner bore off fewer than 15)."""
    assert game.winner is not None
    winner_colour = colour[game.winner]
    off = borne_off(game, game.winner)
    if off > 15:
        raise MatError(f"{source_name}: game {game.number}: {off} checkers borne off")
    resigned = off < 15
    last_colour = colour[game.turns[-1].player]
    if not resigned and last_colour != winner_colour:
        raise MatError(f"{source_name}: game {game.number}: winner did not make the last move")
    if resigned and last_colour != winner_colour:
        # The loser resigns on his own turn; gnubg never records another roll.
        raise MatError(f"{source_name}: game {game.number}: resigning side is not the side to move")
    return resigned


def to_nrd(game: MatGame, source_name: str, event: str) -> NrdGame:
    if not game.turns:
        raise MatError(f"{source_name}: game {game.number} has no turns")
    assert game.winner is not None and game.points is not None
    first = game.turns[0].player
    # colour of .mat player p in this game: 0 = white (moved first), 1 = black
    colour = {first: 0, 1 - first: 1}
    winner_colour = colour[game.winner]
    if game.points not in RESULT_WORD:
        raise MatError(f"{source_name}: game {game.number}: unexpected points {game.points}")
    resigned = _resigned(game, colour, source_name)
    white_name = game.names[first]
    black_name = game.names[1 - first]
    stem = Path(source_name).stem
    tags = [
        ("Variant", "short"),
        ("Event", event),
        ("White", white_name),
        ("Black", black_name),
        ("Series", stem),
        ("Game", str(game.number)),
        ("Result", f"{SIDE_NAME[winner_colour]} {RESULT_WORD[game.points]}"),
        ("Source", f"{Path(source_name).name} game {game.number}"),
    ]
    if resigned:
        tags.append(("GnubgPoints", str(game.points)))
    lines = [f"[{k} {quote(v)}]" for k, v in tags]
    lines.append("")
    lines.extend(_movetext(game, colour, source_name, 1 - winner_colour if resigned else None))
    return NrdGame(text="\n".join(lines) + "\n", resigned=resigned)


def _movetext(
    game: MatGame, colour: dict[int, int], source_name: str, resigns: int | None
) -> list[str]:
    """The numbered movetext lines; ``resigns``: the colour that resigns, if one does."""
    body: list[str] = []
    current = ""
    for i, t in enumerate(game.turns):
        c = colour[t.player]
        if c != i % 2:
            raise MatError(f"{source_name}:{t.line}: turns do not alternate")
        action = f"{t.dice[0]}{t.dice[1]}:" + "".join(" " + convert_move(mv) for mv in t.moves)
        if c == 0:
            if current:
                body.append(current)
            current = f"{i // 2 + 1}. {action}"
        else:
            current += " " + action
    if resigns == 0:
        body.append(current)
        current = f"{len(game.turns) // 2 + 1}. W resigns"
    elif resigns == 1:
        current += " B resigns"
    body.append(current)
    return body


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parents[2]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "files", nargs="*", type=Path, help=".mat files (default: fixtures/gnubg/mat/*.mat)"
    )
    ap.add_argument("--out-dir", type=Path, default=root / "fixtures" / "gnubg")
    ap.add_argument("--event", default="gnubg self-play")
    args = ap.parse_args(argv)
    files: list[Path] = args.files or sorted((root / "fixtures" / "gnubg" / "mat").glob("*.mat"))
    if not files:
        print("no .mat files", file=sys.stderr)
        return 2
    complete: list[str] = []
    resigned: list[str] = []
    for f in files:
        for g in parse_mat(f.read_text(encoding="utf-8"), f.name):
            ng = to_nrd(g, f.name, args.event)
            (resigned if ng.resigned else complete).append(ng.text)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "selfplay.nrd").write_text("\n".join(complete), encoding="utf-8")
    (args.out_dir / "resigned.nrd").write_text("\n".join(resigned), encoding="utf-8")
    print(
        f"{len(files)} files: {len(complete)} complete games -> selfplay.nrd, "
        f"{len(resigned)} resigned games -> resigned.nrd"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
