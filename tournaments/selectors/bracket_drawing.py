"""The bracket diagram: where each match's box and each connecting line goes, for the SVG
of templates/tournaments/_bracket.html. A pure layout over the bracket's plain data (as
the pairing algorithms are) plus the played series; the template only draws.

Columns are rounds; a match sits level with the matches that feed it (the mean of their
heights), a first-round match in the next free row. Sections stack: the winners' bracket
(the only one in single elimination), the third-place series, the consolation and the
losers' brackets; the grand final and its reset stand to the right, level with the
winners' final. Each connector carries the player who travelled along it, so that the
page can light up one player's path (static/js/bracket.js).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.pairing import Bracket
from tournaments.pairing.types import (
    BracketMatch,
    BracketState,
    Bye,
    LoserOf,
    PairingError,
    Seed,
    Source,
    WinnerOf,
)
from tournaments.selectors.rows import SeriesRow
from tournaments.wording.names import stage_name

BOX_W = 200  # px: a box, its two lines and their scores
BOX_H = 48
LINE_H = BOX_H // 2
COL_W = BOX_W + 44  # the gap holds the connectors
ROW_H = 62
HEADER_H = 26  # the round names above each section's columns
TITLE_H = 30  # a section's title (double elimination, third place, consolation)
PAD = 8
NAME_CHARS = 23  # what fits beside the score at the CSS font size; the rest: "…"

SECTIONS = ("winners", "third_place", "consolation", "losers")


def section_title(section: str) -> str:
    return {
        "winners": _("Winners' bracket"),
        "losers": _("Losers' bracket"),
        "third_place": _("Third place"),
        "consolation": _("Consolation"),
    }.get(section, "")


@dataclass(frozen=True, slots=True)
class Line:
    """One side of a box: a player, a bye, or where the player will come from."""

    player_id: int | None
    name: str  # in full: the <title> and the aria label
    short: str  # as drawn: cut with "…"
    score: str
    won: bool
    muted: bool  # a bye or a player not known yet
    y: int  # the text's baseline


@dataclass(frozen=True, slots=True)
class Box:
    slot: str
    stage: str
    x: int
    y: int
    lines: tuple[Line, Line]
    series_pk: int | None
    label: str  # the aria label: stage, players, score

    @property
    def players(self) -> str:
        return " ".join(str(line.player_id) for line in self.lines if line.player_id)


@dataclass(frozen=True, slots=True)
class Connector:
    path: str  # SVG path data
    player_id: int | None  # who went along it (the source match's winner)


@dataclass(frozen=True, slots=True)
class Heading:
    x: int
    y: int
    text: str
    title: bool  # a section's title, else a round's name


@dataclass(frozen=True, slots=True)
class Drawing:
    width: int
    height: int
    boxes: list[Box]
    connectors: list[Connector]
    headings: list[Heading]
    label: str


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1].rstrip() + "…"


def _score(value: object) -> str:
    text = f"{value}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _source_text(source: Source, names: Mapping[int, str], seeds: Sequence[int]) -> str:
    if isinstance(source, Seed):
        pk = seeds[source.number - 1] if source.number <= len(seeds) else 0
        return names.get(pk, f"#{source.number}")
    if isinstance(source, Bye):
        return _("bye")
    if isinstance(source, WinnerOf):
        return _("winner of %(slot)s") % {"slot": source.match}
    if isinstance(source, LoserOf):
        return _("loser of %(slot)s") % {"slot": source.match}
    return "?"


def _results(series: Sequence[SeriesRow]) -> dict[str, int]:
    """The winning side of every decided series, as ``Bracket.advance`` takes them."""
    results = {}
    for s in series:
        if s.slot and s.closed and s.winner_id is not None and s.player2_id is not None:
            results[s.slot] = 0 if s.winner_id == s.player1_id else 1
    return results


def _rows(matches: Sequence[BracketMatch]) -> dict[str, float]:
    """The row of each match of one section: level with the matches that feed it."""
    rows: dict[str, float] = {}
    free = 0
    for m in matches:
        fed = [rows[s.match] for s in m.sources if isinstance(s, WinnerOf) and s.match in rows]
        if fed:
            rows[m.id] = sum(fed) / len(fed)
        else:
            rows[m.id] = free
            free += 1
    return rows


def bracket_drawing(
    bracket: Bracket[int], series: Sequence[SeriesRow], names: Mapping[int, str]
) -> Drawing:
    """Boxes, connectors and headings of the whole bracket, in pixels."""
    by_slot = {s.slot: s for s in series if s.slot}
    try:
        state: BracketState[int] | None = bracket.advance(_results(series))
    except PairingError:
        state = None  # a result that does not fit: the boxes still show the series
    places: dict[str, tuple[int, int]] = {}  # slot -> (x, y) of the box's top left
    headings: list[Heading] = []
    top = PAD
    winners_rounds = max((m.round for m in bracket.matches if m.bracket == "winners"), default=1)
    columns = 0
    for section in SECTIONS:
        matches = [m for m in bracket.matches if m.bracket == section]
        if not matches:
            continue
        rows = _rows(matches)
        first_round = min(m.round for m in matches)
        column_of = {m.id: m.round - first_round for m in matches}
        if section == "third_place":  # under the final, titled above its box
            column_of = {m.id: winners_rounds - 1 for m in matches}
        if section != "winners" or bracket.kind == "double" or len(bracket.matches) > len(matches):
            x = PAD + min(column_of.values()) * COL_W
            headings.append(Heading(x, top + TITLE_H - 10, section_title(section), True))
            top += TITLE_H
        named: set[int] = set()
        header = 12 if section == "third_place" else HEADER_H  # its title names it
        for m in matches:
            col = column_of[m.id]
            columns = max(columns, col + 1)
            places[m.id] = (PAD + col * COL_W, top + header + round(rows[m.id] * ROW_H))
            if col not in named and section != "third_place":
                named.add(col)
                headings.append(
                    Heading(
                        PAD + col * COL_W,
                        top + 16,
                        stage_name(bracket=m.bracket, round=m.round, stage=m.stage),
                        False,
                    )
                )
        top += header + (int(max(rows.values())) + 1) * ROW_H
    finals = [m for m in bracket.matches if m.bracket == "final"]
    if finals:
        final_y = places[f"W{winners_rounds}-1"][1] if f"W{winners_rounds}-1" in places else PAD
        for k, m in enumerate(finals):
            x = PAD + (columns + k) * COL_W
            places[m.id] = (x, final_y)
            headings.append(
                Heading(
                    x, PAD + 16, stage_name(bracket=m.bracket, round=m.round, stage=m.stage), False
                )
            )
        columns += len(finals)
    boxes = [_box(m, places[m.id], by_slot.get(m.id), state, names, bracket.seeds)
             for m in bracket.matches]  # fmt: skip
    connectors = _connectors(bracket.matches, places, state)
    width = PAD + columns * COL_W - (COL_W - BOX_W) + PAD
    height = max(y for _x, y in places.values()) + BOX_H + PAD
    label = ngettext("Bracket: %(n)s series", "Bracket: %(n)s series", len(boxes)) % {
        "n": len(boxes)
    }
    return Drawing(width, max(height, top), boxes, connectors, headings, label)


def _box(
    m: BracketMatch,
    at: tuple[int, int],
    s: SeriesRow | None,
    state: BracketState[int] | None,
    names: Mapping[int, str],
    seeds: Sequence[int],
) -> Box:
    x, y = at
    played = state.matches[m.id] if state is not None else None
    sides: list[Line] = []
    for i in (0, 1):
        baseline = y + i * LINE_H + LINE_H - 8
        pk: int | None = None
        score = ""
        if s is not None:
            pk = s.player1_id if i == 0 else s.player2_id
            score = _score(s.score1 if i == 0 else s.score2) if s.player2_id else ""
        elif played is not None:
            pk = played.players[i]
        if pk is not None:
            name = names.get(pk, "?")
            won = s is not None and s.winner_id == pk and s.player2_id is not None
            sides.append(Line(pk, name, _short(name), score, won, False, baseline))
        else:
            bye = s is not None or (played is not None and played.status in ("walkover", "empty"))
            source = m.sources[i]
            if isinstance(source, LoserOf) and state is not None:  # the loser of a bye
                bye = bye or state.matches[source.match].status in ("walkover", "empty")
            text = _("bye") if bye else _source_text(m.sources[i], names, seeds)
            sides.append(Line(None, text, _short(text), "", False, True, baseline))
    one, two = sides
    against = _("%(one)s against %(two)s") % {"one": one.name, "two": two.name}
    words = f"{stage_name(bracket=m.bracket, round=m.round, stage=m.stage)}: {against}"
    if s is not None and s.player2_id:
        words += f", {one.score} : {two.score}"
    winner = next((line.name for line in sides if line.won), "")
    if winner:
        words += ", " + _("winner %(name)s") % {"name": winner}
    return Box(m.id, m.stage, x, y, (one, two), s.pk if s else None, words)


def _connectors(
    matches: Sequence[BracketMatch],
    places: Mapping[str, tuple[int, int]],
    state: BracketState[int] | None,
) -> list[Connector]:
    lines = []
    for m in matches:
        tx, ty = places[m.id]
        feeding: list[tuple[str, int]] = []
        if m.only_if is not None:  # the reset follows the grand final itself
            feeding.append((m.only_if[0], BOX_H // 2))
        else:
            for i, source in enumerate(m.sources):
                if isinstance(source, WinnerOf) and source.match in places:
                    feeding.append((source.match, i * LINE_H + LINE_H // 2))
        for source_id, into in feeding:
            sx, sy = places[source_id]
            start_x, start_y = sx + BOX_W, sy + BOX_H // 2
            end_y = ty + into
            mid = tx - (COL_W - BOX_W) // 2 if tx > start_x else start_x + 12
            path = f"M{start_x} {start_y}H{mid}V{end_y}H{tx}"
            who = state.matches[source_id].winner if state is not None else None
            lines.append(Connector(path, who))
    return lines


__all__ = ["Box", "Connector", "Drawing", "bracket_drawing", "section_title"]
