"""Exports of a tournament: game records (.nrd), standings and crosstables (CSV) and the
whole tournament as one JSON archive (read back by tournaments/services/imports.py)."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Protocol, TypeVar

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import pgettext, pgettext_lazy

from tournaments.engine import write_tags
from tournaments.models import (
    START_RATING,
    Correction,
    Entry,
    Game,
    Player,
    PlayerRating,
    ProhibitedPair,
    RatingChange,
    Round,
    Series,
    SeriesStatus,
    Submission,
    TieBreak,
    Tournament,
)
from tournaments.selectors.standings import shown_tie_breaks, standings_for_tournament
from tournaments.wording.gender import withdrawn_word

T = TypeVar("T")

ARCHIVE_FORMAT = "nardy-tournament-archive"
ARCHIVE_VERSION = 1
# The tournament's settings as archived: every concrete field but the id, directors and
# the cache version (a counter of this installation's writes, tournaments/caching/).
SETTINGS = [
    f.name
    for f in Tournament._meta.concrete_fields
    # directors is many-to-many, not concrete; the fingerprint is the archive's own
    if f.name not in ("id", "cache_version", "fingerprint")
]


class Progress(Protocol):
    """Wraps an iterable to show progress (a tqdm bar in the commands)."""

    def __call__(
        self, items: Iterable[T], *, desc: str, total: int | None = None
    ) -> Iterable[T]: ...


def no_progress(items: Iterable[T], *, desc: str, total: int | None = None) -> Iterable[T]:
    return items


# game records ------------------------------------------------------------------------


def game_nrd(game: Game) -> str:
    """A game as record text: its stored (canonical) record, or, for a result entered
    without one, the tags that tell it (no moves)."""
    if game.record:
        return game.record if game.record.endswith("\n") else game.record + "\n"
    series = game.series
    t = series.tournament
    if game.winner_id is None:
        result = "draw"
    else:
        result = f"{'white' if game.winner_id == game.white_id else 'black'} {game.kind}"
    tags = [
        ("Variant", t.variant),
        ("Event", t.name),
        ("Date", (series.finished_at or game.entered_at or timezone.now()).date().isoformat()),
        ("White", game.white.name),
        ("Black", game.black.name),
        ("Series", str(series.pk)),
        ("Game", str(game.number)),
        ("Result", result),
    ]
    if series.round is not None:
        tags.insert(2, ("Round", str(series.round.number)))
    lines = write_tags(tags)
    # a file for the engine and other programs, the same whoever downloads it: its comment
    # is in English with the format's own words, as its tags are (docs/api.md)
    note = "{result entered without a record"
    note += "" if game.ended == "played" else f", {game.ended}"
    note += "" if game.cube == 1 else f", cube {game.cube}"
    return "\n".join(lines) + f"\n\n{note}}}\n"


def _games(**filters: Any) -> Iterable[Game]:
    return (
        Game.objects.filter(**filters)
        .select_related("series__tournament", "series__round", "white", "black")
        .order_by("series__round__number", "series__table", "series_id", "number")
    )


def series_nrd(series: Series) -> str:
    return "\n".join(game_nrd(g) for g in _games(series=series))


def tournament_nrd(tournament: Tournament, progress: Progress = no_progress) -> str:
    games = list(_games(series__tournament=tournament))
    return "\n".join(game_nrd(g) for g in progress(games, desc="games", total=len(games)))


# standings and crosstables -----------------------------------------------------------


def score_text(value: Decimal) -> str:
    """3, 2.5 (never 3.0)."""
    return str(int(value)) if value == value.to_integral_value() else str(value.normalize())


# A cell a spreadsheet would run as a formula starts with one of these (OWASP, "CSV
# injection"); such a cell is written with a leading apostrophe unless it is a number.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value: Any) -> Any:
    """A value made safe for a spreadsheet; numbers stay numbers.

    >>> csv_cell("=cmd|' /C calc'!A0"), csv_cell("-1.5"), csv_cell(-2), csv_cell("Jana")
    ("'=cmd|' /C calc'!A0", '-1.5', -2, 'Jana')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class _SafeWriter:
    """csv.writer whose every cell goes through csv_cell: every CSV the app writes."""

    def __init__(self, out: io.StringIO) -> None:
        self.writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[Any]) -> None:
        self.writer.writerow([csv_cell(v) for v in row])


# The CSV files' column headings, said in the language of whoever downloads them; a
# tie-break's column is headed by its name (TieBreak's label).
HEADINGS = {
    "rank": pgettext_lazy("CSV heading", "rank"),
    "player": pgettext_lazy("CSV heading", "player"),
    "club": pgettext_lazy("CSV heading", "club"),
    "played": pgettext_lazy("CSV heading", "series played"),
    "won": pgettext_lazy("CSV heading", "series won"),
    "drawn": pgettext_lazy("CSV heading", "series drawn"),
    "lost": pgettext_lazy("CSV heading", "series lost"),
    "game_points_for": pgettext_lazy("CSV heading", "game points for"),
    "game_points_against": pgettext_lazy("CSV heading", "game points against"),
    "mars_wins": pgettext_lazy("CSV heading", "mars wins"),
    "points": pgettext_lazy("CSV heading", "points"),
    "withdrawn": pgettext_lazy("CSV heading", "withdrawn"),
}
STANDINGS_COLUMNS = ("rank", "player", "club", "played", "won", "drawn", "lost",
                     "game_points_for", "game_points_against", "mars_wins", "points")  # fmt: skip


def standings_headings(breaks: Iterable[str]) -> list[str]:
    """The standings CSV's first line in the active language."""
    names = dict(TieBreak.choices)
    return [
        *(str(HEADINGS[c]) for c in STANDINGS_COLUMNS),
        # numbered, and told from the columns before: "series won" is both
        *(
            pgettext("CSV heading", "tie-break %(n)s: %(name)s") % {"n": n, "name": names.get(b, b)}
            for n, b in enumerate(breaks, start=1)
        ),
        str(HEADINGS["withdrawn"]),
    ]


def standings_csv(tournament: Tournament) -> str:
    rows = standings_for_tournament(tournament=tournament)
    breaks = list(shown_tie_breaks(tournament))  # none for a knockout
    out = io.StringIO()
    writer = _SafeWriter(out)
    writer.writerow(standings_headings(breaks))
    withdrawn = pgettext("CSV cell", "yes")
    for r in rows:
        values = dict(r.tiebreaks)
        writer.writerow(
            [f"{r.rank}=" if r.shared else r.rank, r.player_name, r.club_name, r.played, r.won,
             r.drawn, r.lost, score_text(r.game_points_for), score_text(r.game_points_against),
             r.mars_wins, score_text(r.points),
             *("" if values.get(b) is None else score_text(Decimal(values[b] or 0))
               for b in breaks),
             withdrawn if r.withdrawn else ""]
        )  # fmt: skip
    return out.getvalue()


def crosstable_csv(tournament: Tournament) -> str:
    """Players (in standings order) against players: the game-point scores of their
    series, "3-1" seen from the row's player; several series are separated by spaces."""
    rows = standings_for_tournament(tournament=tournament)
    order = [r.player_id for r in rows]
    cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    played = (
        Series.objects.filter(tournament=tournament, player1__isnull=False, player2__isnull=False)
        .exclude(status=SeriesStatus.SCHEDULED)
        .select_related("round")
        .order_by("round__number", "table", "id")
    )
    for s in played:
        assert s.player1_id is not None and s.player2_id is not None
        one, two = score_text(s.score1), score_text(s.score2)
        cells[(s.player1_id, s.player2_id)].append(f"{one}-{two}")
        cells[(s.player2_id, s.player1_id)].append(f"{two}-{one}")
    out = io.StringIO()
    writer = _SafeWriter(out)

    def name(r: Any) -> str:
        if r.withdrawn:
            return f"{r.player_name} ({withdrawn_word(getattr(r, 'gender', ''))})"
        return str(r.player_name)

    heading = [str(HEADINGS["rank"]), str(HEADINGS["player"])]
    writer.writerow([*heading, *(name(r) for r in rows)])
    for r in rows:
        writer.writerow(
            [r.rank, name(r)] + [" ".join(cells.get((r.player_id, other), [])) for other in order]
        )
    return out.getvalue()


# the archive -------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _username(user: Any) -> str | None:
    return None if user is None else str(user.username)


def _involved_players(tournament: Tournament) -> list[Player]:
    ids: set[int] = set(
        Entry.objects.filter(tournament=tournament).values_list("player", flat=True)
    )
    for s in Series.objects.filter(tournament=tournament).values_list("player1", "player2"):
        ids.update(p for p in s if p is not None)
    for g in Game.objects.filter(series__tournament=tournament).values_list("white", "black"):
        ids.update(g)
    for pp in ProhibitedPair.objects.filter(tournament=tournament).values_list(
        "player_a", "player_b"
    ):
        ids.update(pp)
    for sub in Submission.objects.filter(series__tournament=tournament).values_list(
        "white", "winner"
    ):
        ids.update(p for p in sub if p is not None)
    players = Player.objects.filter(pk__in=ids).select_related("club")
    return sorted(players, key=lambda p: (p.name, p.club.name if p.club else "", p.pk))


def _mapped(snapshot: Any, refs: dict[int, int], keys: Iterable[str]) -> Any:
    """A JSON value (correction snapshot, pairing note) with player ids made references."""
    if not isinstance(snapshot, dict):
        return snapshot
    return {k: refs.get(v, v) if k in keys and isinstance(v, int) else v
            for k, v in snapshot.items()}  # fmt: skip


SNAPSHOT_PLAYERS = ("white", "black", "winner")
PAIRING_PLAYERS = ("floated_down", "floated_up", "starter")


def tournament_archive(tournament: Tournament, progress: Progress = no_progress) -> dict[str, Any]:
    """Everything about a tournament as plain JSON data. Players, series and games are
    referred to by their place in the archive (``ref``), never by database ids."""
    players = _involved_players(tournament)
    pref = {p.pk: n for n, p in enumerate(players, start=1)}
    # the archive is of one game: the players' ratings are of the tournament's game
    ratings = {
        r.player_id: r
        for r in PlayerRating.objects.filter(player__in=pref, variant=tournament.variant)
    }
    clubs = sorted({p.club for p in players if p.club is not None}, key=lambda c: c.name)
    settings = {name: _plain(getattr(tournament, name)) for name in SETTINGS}
    games = Game.objects.select_related("entered_by").prefetch_related(
        Prefetch("corrections", queryset=Correction.objects.select_related("by"))
    )
    series_list = list(
        Series.objects.filter(tournament=tournament)
        .select_related("round")
        .prefetch_related(
            Prefetch("games", queryset=games.order_by("number")),
            Prefetch(
                "submissions",
                queryset=Submission.objects.select_related(
                    "submitted_by", "decided_by", "game"
                ).order_by("number", "submitted_at", "id"),
            ),
        )
        .order_by("round__number", "table", "slot", "id")
    )
    sref = {s.pk: n for n, s in enumerate(series_list, start=1)}
    archived_series = []
    for n, s in enumerate(progress(series_list, desc="series", total=len(series_list)), start=1):
        archived_series.append(
            {
                "ref": n,
                "round": s.round.number if s.round else None,
                "slot": s.slot, "table": s.table,
                "player1": pref.get(s.player1_id or 0), "player2": pref.get(s.player2_id or 0),
                "length": s.length, "status": s.status,
                "score1": _plain(s.score1), "score2": _plain(s.score2),
                "winner": pref.get(s.winner_id or 0), "finished_at": _plain(s.finished_at),
                "version": s.version,
                "pairing": _mapped(s.pairing, pref, PAIRING_PLAYERS),
                "games": [_archived_game(g, pref) for g in s.games.all()],
                "submissions": [_archived_submission(sub, pref) for sub in s.submissions.all()],
            }
        )  # fmt: skip
    changes = RatingChange.objects.filter(series__tournament=tournament).order_by(
        "at", "series_id", "player_id"
    )
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "fingerprint": str(tournament.fingerprint),
        "tournament": settings
        | {"directors": sorted(u.username for u in tournament.directors.all())},
        "clubs": [{"name": c.name, "city": c.city, "country": c.country} for c in clubs],
        "players": [
            {
                "ref": pref[p.pk],
                "name": p.name,
                "club": p.club.name if p.club else None,
                "country": p.country,
                "rating": ratings[p.pk].rating if p.pk in ratings else START_RATING,
                "experience": ratings[p.pk].experience if p.pk in ratings else 0,
                "active": p.active,
            }
            for p in players
        ],
        "entries": [
            {"player": pref[e.player_id], "seed": e.seed, "withdrawn": e.withdrawn}
            for e in sorted(
                Entry.objects.filter(tournament=tournament), key=lambda e: pref[e.player_id]
            )
        ],
        "prohibited_pairs": sorted(
            (
                {
                    "player_a": pref[pp.player_a_id],
                    "player_b": pref[pp.player_b_id],
                    "reason": pp.reason,
                }
                for pp in ProhibitedPair.objects.filter(tournament=tournament)
            ),
            key=lambda d: (d["player_a"], d["player_b"]),
        ),
        "rounds": [
            {"number": r.number, "name": r.name}
            for r in Round.objects.filter(tournament=tournament).order_by("number")
        ],
        "series": archived_series,
        "rating_changes": [
            {
                "player": pref[c.player_id],
                "series": sref[c.series_id],
                "before": c.before,
                "after": c.after,
                "experience_before": c.experience_before,
                "at": _plain(c.at),
            }
            for c in changes
        ],
    }


def _archived_game(g: Game, pref: dict[int, int]) -> dict[str, Any]:
    return {
        "number": g.number, "white": pref[g.white_id], "black": pref[g.black_id],
        "winner": pref.get(g.winner_id or 0), "kind": g.kind, "ended": g.ended, "cube": g.cube,
        "record": g.record, "verified": g.verified, "verification": g.verification,
        "verification_note": g.verification_note,
        "entered_by": _username(g.entered_by), "entered_at": _plain(g.entered_at),
        "version": g.version,
        "corrections": [
            {"by": _username(c.by), "at": _plain(c.at), "reason": c.reason,
             "before": _mapped(c.before, pref, SNAPSHOT_PLAYERS),
             "after": _mapped(c.after, pref, SNAPSHOT_PLAYERS)}
            for c in g.corrections.all()
        ],
    }  # fmt: skip


def _archived_submission(sub: Submission, pref: dict[int, int]) -> dict[str, Any]:
    return {
        "number": sub.number, "submitted_by": _username(sub.submitted_by),
        "submitted_at": _plain(sub.submitted_at), "white": pref.get(sub.white_id or 0),
        "winner": pref.get(sub.winner_id or 0), "kind": sub.kind, "ended": sub.ended,
        "cube": sub.cube, "record": sub.record, "status": sub.status,
        "decided_by": _username(sub.decided_by), "decided_at": _plain(sub.decided_at),
        "note": sub.note, "game": sub.game.number if sub.game else None,
    }  # fmt: skip
