"""The board as SVG, drawn from an engine position: a pure function of its arguments
(and of the active language, for its words).

The board is seen from one side, the ``viewer`` (white unless told: a player sees it from
their own side), and numbered in the viewer's numbering: points 13-24 on top from left to
right, 12-1 below, the bar in the middle and a tray for the checkers borne off on the
right, the viewer's below. The opponent's checkers are placed through the variant's map
from the viewer's numbering to theirs, so long nardy, short backgammon and Lurč all come
out as real boards. The page draws the frame once and swaps the pieces layer per position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from django.utils.text import capfirst
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from tournaments.engine import BAR, BLACK, OFF, START, WHITE, Position, variant_named
from tournaments.models import Variant

POINT_W = 40
MARGIN = 18
BAR_W = 40
TRAY_W = 56
HALF_W = 6 * POINT_W
WIDTH = MARGIN + HALF_W + BAR_W + HALF_W + MARGIN + TRAY_W
HEIGHT = 440
POINT_H = 175
RADIUS = 17
STEP = 33  # distance between stacked checkers
SHOWN = 5  # checkers drawn in a stack; a number tells the rest
TOP_Y = MARGIN
BOTTOM_Y = HEIGHT - MARGIN
TRAY_X = WIDTH - TRAY_W + (TRAY_W - MARGIN) / 2
TRAY_Y = {BLACK: TOP_Y + 40, WHITE: BOTTOM_Y - 40}  # seen from white's side


def _tray_y(side: int, viewer: int) -> int:
    """The tray of ``side``: the viewer's below, the opponent's above."""
    return TRAY_Y[WHITE] if side == viewer else TRAY_Y[BLACK]


COLOURS = {WHITE: ("#f4efe3", "#3b3b3b", "#1a1a1a"), BLACK: ("#2b2b2b", "#000", "#fff")}
DIE_PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


@dataclass(frozen=True, slots=True)
class PointSpot:
    """Where point ``number`` (white's numbering) lies: its centre x, and whether it hangs
    from the top edge."""

    number: int
    x: float
    top: bool


def point_spot(number: int) -> PointSpot:
    """The place of a point: 13-24 on top from the left, 12-1 below from the left.

    >>> point_spot(24).top, point_spot(1).top
    (True, False)
    """
    top = number >= 13
    column = number - 13 if top else 12 - number  # 0..11 from the left
    x = MARGIN + column * POINT_W + POINT_W / 2 + (BAR_W if column >= 6 else 0)
    return PointSpot(number, x, top)


def _triangle(spot: PointSpot) -> str:
    left, right = spot.x - POINT_W / 2, spot.x + POINT_W / 2
    base, tip = (TOP_Y, TOP_Y + POINT_H) if spot.top else (BOTTOM_Y, BOTTOM_Y - POINT_H)
    fill = "#b5523b" if spot.number % 2 else "#e8c07d"
    return (
        f'<polygon points="{left:g},{base} {right:g},{base} {spot.x:g},{tip}" fill="{fill}"/>'
        f'<text x="{spot.x:g}" y="{base - 5 if spot.top else base + 14}" class="pt">'
        f"{spot.number}</text>"
    )


def board_frame(variant: str, viewer: int = WHITE) -> str:
    """The parts that do not change during a game: wood, points, bar and tray. Drawn once
    per variant, side and language and kept: a room's move sends two boards, and their
    frames were some 7% of the socket server's CPU (docs/online.md)."""
    return _frame(variant, viewer, get_language())


@lru_cache(maxsize=64)  # variants x 2 sides x languages, and room to spare
def _frame(variant: str, viewer: int, language: str | None) -> str:
    """The frame in ``language``, the active one (the key: its words are translated)."""
    bar_x = MARGIN + HALF_W
    tray_x = WIDTH - TRAY_W
    trays = "".join(
        f'<rect x="{TRAY_X - 18:g}" y="{_tray_y(side, viewer) - 16}" width="36" height="32" rx="4" '
        f'fill="{fill}" stroke="{stroke}"/>'
        for side, (fill, stroke, _) in COLOURS.items()
    )
    parts = [
        f"<defs>{_symbols()}</defs>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="6" fill="#6b4423"/>',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{2 * HALF_W + BAR_W}" '
        f'height="{HEIGHT - 2 * MARGIN}" fill="#f7e7c6"/>',
        f'<rect x="{bar_x}" y="{MARGIN}" width="{BAR_W}" height="{HEIGHT - 2 * MARGIN}" '
        'fill="#6b4423"/>',
        f'<rect x="{tray_x}" y="{MARGIN}" width="{TRAY_W - MARGIN}" '
        f'height="{HEIGHT - 2 * MARGIN}" fill="#4d3019"/>',
    ]
    parts += [_triangle(point_spot(n)) for n in range(1, 25)]
    parts.append(trays)
    # the word between the two pip counts of board_pieces: black's above, white's below
    # (outside the f-string: makemessages does not read calls inside one)
    word = pgettext("on the board, between the two pip counts", "pips")
    parts.append(
        f'<text x="{TRAY_X:g}" y="{HEIGHT / 2 + 3:g}" class="pips-label">{escape(word)}</text>'
    )
    parts.append(f"<desc>{escape(_variant_name(variant))}</desc>")
    return "".join(parts)


def _symbols() -> str:
    """Stacks of 1-5 checkers (per side, growing down or up) and dice faces, drawn once
    per board and placed with <use>: a replay holds every position of a game."""
    out = []
    for side, (fill, stroke, ink) in COLOURS.items():
        # one checker, placed by every stack (a page with two boards had 8 KB of these)
        out.append(
            f'<circle id="ck{side}" r="{RADIUS}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>'
        )
        for n in range(1, SHOWN + 1):
            for direction, key in ((1, "d"), (-1, "u")):
                circles = "".join(
                    f'<use href="#ck{side}" y="{direction * (RADIUS + 1 + i * STEP)}"/>'
                    for i in range(n)
                )
                out.append(f'<g id="s{side}{key}{n}">{circles}</g>')
        for value, spots in DIE_PIPS.items():
            pips = "".join(
                f'<circle cx="{dx * 8}" cy="{dy * 8}" r="3" fill="{ink}"/>' for dx, dy in spots
            )
            out.append(
                f'<g id="d{side}{value}"><rect x="-15" y="-15" width="30" height="30" rx="5" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="2"/>{pips}</g>'
            )
    return "".join(out)


def _stack(x: float, count: int, side: int, *, top: bool, start_y: float | None = None) -> str:
    """A column of ``count`` checkers growing from the edge (or from ``start_y``)."""
    first = start_y if start_y is not None else (TOP_Y if top else BOTTOM_Y)
    key = "d" if top else "u"
    out = f'<use href="#s{side}{key}{min(count, SHOWN)}" x="{x:g}" y="{first:g}"/>'
    if count > SHOWN:
        direction = 1 if top else -1
        cy = first + direction * (RADIUS + 1 + (SHOWN - 1) * STEP)
        out += f'<text x="{x:g}" y="{cy:g}" dy="5" class="count c{side}">{count}</text>'
    return out


def _tray(pos: Position, viewer: int, middle: float) -> list[str]:
    """The tray: each side's borne-off (and not yet entered) checkers and its labelled
    pip count, the viewer's below."""
    parts: list[str] = []
    for side in (1 - viewer, viewer):
        board = pos.board(side)
        label = f"{board[OFF]}" + (f"+{board[START]}" if board[START] else "")
        parts.append(
            f'<text x="{TRAY_X:g}" y="{_tray_y(side, viewer)}" dy="5" class="count c{side}">'
            f"<title>{escape(_tray_text(side, board[OFF], board[START]))}</title>"
            f"{escape(label)}</text>"
        )
    for side, y in ((1 - viewer, middle - 14), (viewer, middle + 22)):
        title = _pips_text(side, pos.pips(side))
        parts.append(
            f'<text x="{TRAY_X:g}" y="{y:g}" class="pips c{side}-pips"><title>{escape(title)}'
            f"</title>{pos.pips(side)}</text>"
        )
    return parts


def board_pieces(
    pos: Position, *, dice: Sequence[int] = (), dice_side: int | None = None, viewer: int = WHITE
) -> str:
    """The checkers, the bar, the tray, pip counts, the cube and the dice of ``pos``, seen
    from ``viewer``'s side."""
    v = variant_named(pos.variant)
    mine, theirs = pos.board(viewer), pos.board(1 - viewer)
    to_theirs = v.opp_map[viewer]
    out = []
    for n in range(1, 25):
        spot = point_spot(n)
        if mine[n]:
            out.append(_stack(spot.x, mine[n], viewer, top=spot.top))
        elif theirs[to_theirs[n]]:
            out.append(_stack(spot.x, theirs[to_theirs[n]], 1 - viewer, top=spot.top))
    bar_x = MARGIN + HALF_W + BAR_W / 2
    middle = HEIGHT / 2
    # checkers on the bar: the viewer's below the middle, the opponent's above
    if mine[BAR]:
        out.append(_stack(bar_x, mine[BAR], viewer, top=True, start_y=middle + 20))
    if theirs[BAR]:
        out.append(_stack(bar_x, theirs[BAR], 1 - viewer, top=False, start_y=middle - 20))
    out.extend(_tray(pos, viewer, middle))
    if pos.cube is not None:
        cube_y = middle if pos.cube.owner is None else (
            BOTTOM_Y - 60 if pos.cube.owner == viewer else TOP_Y + 60
        )  # fmt: skip
        out.append(
            f'<rect x="{bar_x - 16:g}" y="{cube_y - 16:g}" width="32" height="32" rx="4" '
            f'fill="#fff" stroke="#000"/><text x="{bar_x:g}" y="{cube_y:g}" dy="5" '
            f'class="count" fill="#000">{pos.cube.value}</text>'
        )
    if dice and dice_side is not None:
        # the dice lie in the half of the board away from the roller's home
        centre = MARGIN + HALF_W + BAR_W + HALF_W / 2
        for i, value in enumerate(dice[:2]):
            x = centre + (i * 2 - 1) * 22
            out.append(f'<use href="#d{dice_side}{value}" x="{x:g}" y="{middle:g}"/>')
    return "".join(out)


def _variant_name(variant: str) -> str:
    """The variant's name in the active language (the engine's title if unknown here),
    kept as the frame is: every board's label names it."""
    return _variant_name_in(variant, get_language())


@lru_cache(maxsize=64)
def _variant_name_in(variant: str, language: str | None) -> str:
    if variant in Variant.values:
        return capfirst(str(Variant(variant).label))
    return variant_named(variant).title


def _tray_text(side: int, off: int, waiting: int) -> str:
    """The tray's count explained: "0+1" is none borne off and one still to enter (Z3)."""
    if waiting:
        if side == WHITE:
            text = _("white: %(off)d borne off, %(waiting)d still to enter")
        else:
            text = _("black: %(off)d borne off, %(waiting)d still to enter")
        return text % {"off": off, "waiting": waiting}
    if side == WHITE:
        return _("white: %(off)d borne off") % {"off": off}
    return _("black: %(off)d borne off") % {"off": off}


def _pips_text(side: int, pips: int) -> str:
    if side == WHITE:
        return _("white: %(pips)d pips") % {"pips": pips}
    return _("black: %(pips)d pips") % {"pips": pips}


def board_label(pos: Position) -> str:
    """A sentence for screen readers: who is to move, the pip counts and the checkers
    borne off, in the active language."""
    turn = _("white to move") if pos.turn == WHITE else _("black to move")
    return _(
        "%(variant)s: %(turn)s; pips: white %(pw)d · black %(pb)d; "
        "borne off: white %(ow)d · black %(ob)d"
    ) % {
        "variant": _variant_name(pos.variant), "turn": turn,
        "pw": pos.pips(WHITE), "pb": pos.pips(BLACK), "ow": pos.off(WHITE), "ob": pos.off(BLACK),
    }  # fmt: skip


def board_svg(
    pos: Position,
    *,
    dice: Sequence[int] = (),
    dice_side: int | None = None,
    label: str | None = None,
    element_id: str = "",
    viewer: int = WHITE,
) -> str:
    """A whole board: frame and pieces, with an accessible name, seen from ``viewer``'s
    side (numbered in the viewer's numbering).

    >>> board_svg(Position.start("long")).startswith("<svg")
    True
    """
    ident = f' id="{escape(element_id)}"' if element_id else ""
    return (
        f'<svg{ident} class="board" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label or board_label(pos))}" xmlns="http://www.w3.org/2000/svg">'
        f"{board_frame(pos.variant, viewer)}"
        f'<g class="pieces">{board_pieces(pos, dice=dice, dice_side=dice_side, viewer=viewer)}'
        "</g></svg>"
    )


__all__ = ["board_frame", "board_label", "board_pieces", "board_svg", "point_spot"]
