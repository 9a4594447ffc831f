"""The parts of pages that are the same for every visitor, rendered once and cached
(tournaments/caching/, docs/performance.md). The per-user parts (the header's login,
the director's links and forms) are rendered around them on every request."""

from __future__ import annotations

from html import unescape
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.html import strip_tags
from django.utils.safestring import SafeString, mark_safe

from tournaments.board import HEIGHT, WIDTH
from tournaments.caching import cached, digest, key, tournament_key
from tournaments.caching.versions import played_versions
from tournaments.models import Player, Tournament
from tournaments.selectors.access import User
from tournaments.selectors.analysis import TurnMark
from tournaments.selectors.pages import RoundRows, tournament_page
from tournaments.selectors.replay import game_replay
from tournaments.selectors.rows import SeriesRow
from tournaments.selectors.stats import PlayerTotals, player_stats


def _series_state(s: SeriesRow) -> tuple[object, ...]:
    """Everything _pairings.html shows of a series."""
    return (
        s.pk, s.table, s.slot, s.status, s.score1, s.score2, s.winner_id,
        s.player1_id, s.player1.name if s.player1 else None,
        s.player2_id, s.player2.name if s.player2 else None,
    )  # fmt: skip


def _pairings_html(rows: RoundRows) -> SafeString:
    """One round's table, cached by its content: after a result only its round is drawn
    again (a page of seven rounds of 64 tables is mostly past rounds)."""
    state = tuple(_series_state(s) for s in rows.series)
    return mark_safe(
        cached(
            key("pairings", digest(state)),
            lambda: render_to_string(
                "tournaments/_pairings.html", {"series_list": rows.series}
            ).strip(),
        )
    )


def tournament_body(tournament: Tournament, *, directing: bool = False) -> SafeString:
    """Settings, standings, crosstable, bracket and rounds: cached at the tournament's
    version. The current round's pairings come first, above the standings, while it is
    in play (for everybody: who plays whom at which table is what they look for then),
    and always for its directors (two copies: the directors' and everybody's)."""

    def build() -> str:
        page = tournament_page(tournament=tournament)
        rounds = [(r, _pairings_html(r)) for r in page.rounds]
        current = rounds[-1] if rounds and rounds[-1][0].round is not None else None
        in_play = current is not None and any(not s.closed for s in current[0].series)
        first = current if current is not None and (in_play or directing) else None
        context = {
            "page": page, "t": tournament, "current": first, "in_play": in_play,
            "rounds": [r for r in rounds if r is not first],
        }  # fmt: skip
        return render_to_string("tournaments/_tournament_body.html", context)

    who = "directors" if directing else "everybody"
    return mark_safe(cached(tournament_key("tournament-page", tournament, who), build))


def last_round_number(tournament: Tournament) -> int | None:
    """The number of the tournament's last round (None before pairing), for the links
    around the cached body: cached by version too."""
    return cached(
        tournament_key("last-round", tournament),
        lambda: tournament.rounds.order_by("-number").values_list("number", flat=True).first(),
    )


def _replay_context(
    record: str, asked: int | None, marks: dict[int, TurnMark]
) -> dict[str, object]:
    replay = game_replay(record) if record else None
    context: dict[str, object] = {"replay": replay, "board_width": WIDTH, "board_height": HEIGHT}
    if replay is not None and replay.frames:
        last = len(replay.frames) - 1
        current = last if asked is None else max(0, min(asked, last))
        context |= {
            # the best play's board uses the checkers drawn once in the board's <defs>
            "frame_shared": replay.frame_svg.split("</defs>", 1)[-1],
            "current": replay.frames[current],
            "current_mark": marks.get(current),
            "previous": max(current - 1, 0),
            "next": min(current + 1, last),
            "last": last,
            "moves": [(f, marks.get(f.index)) for f in replay.frames[1:]],
            "best_marks": [m for m in marks.values() if m.best_pieces],
            "marked": bool(marks),
        }
    return context


class Replay(NamedTuple):
    """The replay part of a game page and what the page around it shows of it."""

    html: SafeString
    last: int  # the last turn's index; -1: nothing to step through
    turn: int  # the turn shown
    irregular: tuple[tuple[int, int, str], ...]  # (index, number, side) of accepted turns


def replay_html(
    record: str, asked: int | None, marks: list[TurnMark] | tuple[TurnMark, ...] = ()
) -> Replay:
    """The replay part of a game page for the turn asked (the last when None). Cached by
    the record's digest: the record is parsed, replayed and drawn once, not on every
    request. A turn out of range is shown as the nearest one and cached under that one,
    so a hostile ``?turn=`` makes no new entries. ``marks``, the analysis's marked turns
    (selectors/analysis.py), go into the move list, with the best play drawn beside the
    board at an error; they are part of the drawing's key (an analysis comes later)."""
    record_key = digest(record)
    by_frame = {m.frame: m for m in marks if m.frame > 0}
    marks_key = digest(tuple(m.key() for m in by_frame.values())) if by_frame else "-"

    def outline() -> tuple[int, tuple[tuple[int, int, str], ...]]:
        replay = game_replay(record) if record else None
        frames = replay.frames if replay is not None else []
        marked = tuple((f.index, f.number, f.side) for f in frames if f.irregular)
        return len(frames) - 1, marked

    last, irregular = cached(key("replay-outline", record_key, language=False), outline)
    turn = -1 if last < 0 else (last if asked is None else max(0, min(asked, last)))

    def build() -> str:
        context = _replay_context(record, turn, by_frame)
        return render_to_string("tournaments/_replay.html", context)

    html = mark_safe(cached(key("replay", record_key, marks_key, turn), build))
    return Replay(html, last, turn, irregular)


def replay_frames(
    record: str, marks: list[TurnMark] | tuple[TurnMark, ...] = ()
) -> dict[str, object]:
    """Every position of the replay for static/js/replay.js, fetched once the replay is
    used (the page carries only the position shown): per frame its accessible name, its
    pieces layer and the pip counts and side to move of the turn's sentence; per turn
    marked as an error the best play's name, caption and pieces. Cached as replay_html."""
    by_frame = {m.frame: m for m in marks if m.frame > 0}
    marks_key = digest(tuple(m.key() for m in by_frame.values())) if by_frame else "-"

    def build() -> dict[str, object]:
        replay = game_replay(record) if record else None
        frames = replay.frames if replay is not None else []
        best = {
            str(m.frame): [
                m.best_label,
                unescape(
                    strip_tags(render_to_string("tournaments/_best_turn_caption.html", {"m": m}))
                ),
                m.best_pieces,
            ]
            for m in by_frame.values()
            if m.best_pieces
        }
        rows = [[f.label, f.pieces, f.pips_white, f.pips_black, f.to_move] for f in frames]
        return {"frames": rows, "best": best}

    return cached(key("replay-frames", digest(record), marks_key), build)


def player_figures(*, player: Player, user: User | None) -> PlayerTotals:
    """A player's figures over the recorded games the user may see: every record replayed
    once per change, not per request. Keyed by the versions of the tournaments they come
    from (one query), so a write in any of them, or a tournament published or hidden,
    gives a new key; users who may see the same tournaments share the entry."""
    seen = played_versions(player_id=player.pk, user=user)
    return cached(
        key("player-figures", player.pk, digest(seen), language=False),
        lambda: player_stats(player=player, user=user),
    )
