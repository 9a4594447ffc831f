"""Entering and correcting game results: quick scoresheet entry, full records verified
by the engine, and directors' corrections with an audit trail. Each call is one
transaction: a refused result changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    CLOSED_STATUSES,
    Correction,
    Game,
    GameAnalysis,
    GameEnd,
    Player,
    Series,
    SeriesStatus,
)
from tournaments.selectors.access import User, is_director, signed_in
from tournaments.selectors.rows import attach_players
from tournaments.services.analysis import games_analyse_later
from tournaments.services.errors import ApplicationError, Conflict, PermissionDenied
from tournaments.services.records import CheckedGame, check_record
from tournaments.services.result_rules import ResultRules, colour_name, result_rules
from tournaments.services.series import (
    series_decided_after,
    series_recompute,
    series_scores,
)
from tournaments.wording.verification import note, result_params


def series_and_games(series: Series, *, lock: bool) -> tuple[Series, list[Game]]:
    """The series (with its tournament and players) and its games in order, the series'
    row locked if ``lock``."""
    rows = Series.objects.select_for_update(of=("self",)) if lock else Series.objects
    current = rows.select_related("tournament", "player1", "player2").get(pk=series.pk)
    games = list(current.games.order_by("number"))
    return current, attach_players(current, games)


def _locked_series(series: Series) -> tuple[Series, list[Game]]:
    return series_and_games(series, lock=True)


def _state(series: Series, games: list[Game]) -> tuple[object, ...]:
    """What a check of the next game depends on: if it is the same under the lock as
    when the record was verified, the verdict stands (no second replay)."""
    return series.version, series.status, tuple((g.pk, g.version) for g in games)


def _check_next_game(series: Series, games: list[Game], number: int | None) -> int:
    if series.player1_id is None or series.player2_id is None:
        raise ApplicationError(
            _("the series has no two players yet"), code="series-no-players", field="series"
        )
    if series.status in CLOSED_STATUSES:
        raise ApplicationError(
            _("the series is %(status)s: no more games can be entered"),
            code="series-closed",
            params={"status": series.get_status_display()},
            field="series",
        )
    expected = len(games) + 1
    if number is None:
        return expected
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ApplicationError(
            _("a game's number is 1, 2, 3, ... (not %(number)s)"),
            code="game-number",
            params={"number": repr(number)},
            field="number",
        )
    if number < expected:
        raise Conflict(
            _("game %(number)s of this series is already entered; the next game is %(expected)s"),
            code="game-entered",
            params={"number": number, "expected": expected},
            field="number",
            current=game_snapshot(games[number - 1]) | {"number": number},
        )
    if number > expected:
        raise ApplicationError(
            _("game %(number)s cannot be entered before game %(expected)s"),
            code="game-out-of-order",
            params={"number": number, "expected": expected},
            field="number",
        )
    return number


def check_colours(rules: ResultRules, series: Series, white: Player) -> Player:
    """The black player, once ``white`` is checked against the series rule (L12: the
    starter takes the colour that moves first - black in Lurč, Z1)."""
    if white.pk not in (series.player1_id, series.player2_id):
        raise ApplicationError(
            _("%(player)s does not play in this series"),
            code="player-not-in-series",
            params={"player": white.name},
            field="white",
        )
    black = series.player2 if white.pk == series.player1_id else series.player1
    assert black is not None
    starter = rules.starter
    if starter is not None:
        other = series.player2 if starter.pk == series.player1_id else series.player1
        assert other is not None
        expected = rules.white_for(starter, other)
        if expected.pk != white.pk:
            # game 1's starter is no rule's: the director chose him (L2 leaves it to lot)
            why = (
                _("the director's choice")
                if rules.number == 1
                else series.tournament.get_first_move_display()
            )
            raise ApplicationError(
                _("%(player)s starts game %(number)s and has %(colour)s (first move: %(rule)s)"),
                code="wrong-starter-colour",
                params={
                    "player": starter.name,
                    "number": rules.number,
                    "colour": colour_name(rules.first_colour),
                    "rule": why,
                },
                field="white",
            )
    return black


def series_settle(series: Series, games: list[Game]) -> None:
    """After its games changed: the series' score and status follow, and when it is or
    was finished, the ratings and the bracket."""
    was_finished = series.status == SeriesStatus.FINISHED
    series_recompute(series=series, games=games)
    if series.status == SeriesStatus.FINISHED or was_finished:
        from tournaments.selectors.brackets import BRACKET_FORMATS
        from tournaments.services.pairings import bracket_sync
        from tournaments.services.ratings import ratings_after_series

        ratings_after_series(series=series)
        if series.tournament.format in BRACKET_FORMATS:
            bracket_sync(tournament=series.tournament)  # winners (and losers) move on


@transaction.atomic
def game_enter_quick(
    *,
    series: Series,
    white: Player,
    winner: Player | None,
    kind: str,
    number: int | None = None,
    ended: str = GameEnd.PLAYED,
    cube: int = 1,
    by: User | None = None,
) -> Game:
    """Enter a game as written on a scoresheet: who had white, who won and how.
    ``number`` (the game the caller means to enter) guards against entering it twice."""
    series, games = _locked_series(series)
    number = _check_next_game(series, games, number)
    rules = result_rules(series=series, games=games, number=number)
    black = check_colours(rules, series, white)
    rules.check(series=series, winner=winner, kind=kind, ended=ended, cube=cube)
    game = Game.objects.create(
        series=series, number=number, white=white, black=black, winner=winner, kind=kind,
        ended=ended, cube=cube, entered_by=signed_in(by),
    )  # fmt: skip
    series_settle(series, [*games, game])
    return game


def _players_of_record(series: Series, checked: CheckedGame) -> tuple[Player, Player]:
    names = {p.name.strip().casefold(): p for p in (series.player1, series.player2) if p}
    found = []
    for colour, name in (("White", checked.white), ("Black", checked.black)):
        player = names.get(name.strip().casefold())
        if player is None:
            one, two = (p.name if p else "?" for p in (series.player1, series.player2))
            raise ApplicationError(
                _('[%(tag)s "%(name)s"] is not a player of this series (%(one)s and %(two)s)'),
                code="record-unknown-player",
                params={"tag": colour, "name": name, "one": one, "two": two},
                field="record",
            )
        found.append(player)
    if found[0].pk == found[1].pk:
        raise ApplicationError(
            _("the record names the same player for white and black"),
            code="record-same-player",
            field="record",
        )
    return found[0], found[1]


def _check_score(series: Series, before: list[Game], white: Player, tags: dict[str, str]) -> None:
    """A ``Score`` tag (the match score before the game, white first) must be the
    series' score."""
    given = tags.get("Score")
    if not given:
        return
    one, two = series_scores(series, before)
    mine, theirs = (one, two) if white.pk == series.player1_id else (two, one)
    expected = f"{mine.normalize():f}-{theirs.normalize():f}"
    if given != expected:
        raise ApplicationError(
            _('the record says [Score "%(given)s"] but the series stands %(expected)s '
              "(white first) before this game"),
            code="record-score-differs",
            params={"given": given, "expected": expected},
            field="record",
        )  # fmt: skip


@dataclass(frozen=True)
class CheckedEntry:
    """A record checked for a game of a series: the engine's verdict, with the game's
    number and the series' players in their colours."""

    checked: CheckedGame
    number: int
    white: Player
    black: Player
    winner: Player | None

    def note(self) -> dict[str, Any]:
        return verified_note(self.checked)


def series_check_record(
    *,
    series: Series,
    games: list[Game],
    record: str,
    number: int | None = None,
    correcting: Game | None = None,
) -> CheckedEntry:
    """THE record check for a game of a series, used by saving, the live check,
    corrections, submissions and confirmations (and so imports): the engine replays the
    record under the tournament's rule tags and the series' match tags (MatchLength,
    Crawford, Cube, OpeningRoll); its [Game], [Series], [White], [Black] and [Score]
    tags, its colours (L12) and its outcome must fit the series. ``games`` are the
    series' games in order; ``correcting`` is the game a director replaces."""
    at = correcting.number if correcting is not None else len(games) + 1
    rules = result_rules(series=series, games=games, number=at)
    checked = check_record(record, tournament=series.tournament, match_tags=rules.tags)
    tagged_game = checked.tags.get("Game")
    if number is None and tagged_game and correcting is None:
        number = int(tagged_game)
    elif tagged_game and int(tagged_game) != (number if correcting is None else at):
        raise ApplicationError(
            _('the record says [Game "%(given)s"], not %(number)s'),
            code="record-game-differs",
            params={"given": tagged_game, "number": number or at},
            field="record",
        )
    tagged_series = checked.tags.get("Series")
    if tagged_series and tagged_series != str(series.pk):
        raise ApplicationError(
            _('the record says [Series "%(given)s"]: it belongs to another series'),
            code="record-series-differs",
            params={"given": tagged_series},
            field="record",
        )
    if correcting is None:
        number = _check_next_game(series, games, number)
    white, black = _players_of_record(series, checked)
    check_colours(rules, series, white)
    _check_score(series, games[: at - 1], white, checked.tags)
    winner = None if checked.winner is None else (white if checked.winner == "white" else black)
    rules.check(
        series=series, winner=winner, kind=checked.kind, ended=checked.ended, cube=checked.cube
    )
    return CheckedEntry(checked, at, white, black, winner)


@transaction.atomic
def game_enter_record(
    *, series: Series, record: str, number: int | None = None, by: User | None = None
) -> Game:
    """Enter a game from its full record: the engine verifies it before anything is
    saved, and its players, variant and rule tags must agree with the series. The
    replay runs before the series row is locked (so quick entries on the series do not
    wait for it); under the lock the series must be as it was, else it is checked again."""
    seen, games = series_and_games(series, lock=False)
    entry = series_check_record(series=seen, games=games, record=record, number=number)
    series, games_now = _locked_series(series)
    if _state(series, games_now) != _state(seen, games):
        entry = series_check_record(series=series, games=games_now, record=record, number=number)
    checked = entry.checked
    game = Game.objects.create(
        series=series, number=entry.number, white=entry.white, black=entry.black,
        winner=entry.winner, kind=checked.kind, ended=checked.ended, cube=checked.cube,
        record=checked.text, verified=True, verification_note=entry.note(),
        entered_by=signed_in(by),
    )  # fmt: skip
    series_settle(series, [*games_now, game])
    games_analyse_later(games=[game])
    return game


def checked_result(checked: CheckedGame) -> dict[str, Any]:
    """The result a verified record tells, as a verification note's params."""
    return result_params(winner=checked.winner, kind=checked.kind, ended=checked.ended,
                         cube=checked.cube, irregular=checked.irregular)  # fmt: skip


def verified_note(checked: CheckedGame) -> dict[str, Any]:
    """The verification note of a record that verifies: ``ok, white won (mars)``, with
    its accepted irregular turns (NOTATION: accepted), said when it is shown."""
    return note("verified", **checked_result(checked))


def game_snapshot(game: Game) -> dict[str, Any]:
    """The values a correction may change, for the audit trail."""
    return {
        "white": game.white_id,
        "black": game.black_id,
        "winner": game.winner_id,
        "kind": game.kind,
        "ended": game.ended,
        "cube": game.cube,
        "record": game.record,
    }


_UNSET: Any = object()


def _record_or_drop(drop_record: bool) -> None:
    if drop_record:
        raise ApplicationError(
            _("give a new record or drop the record, not both"),
            code="drop-record-with-record",
            field="drop_record",
        )


def _drop_record(game: Game) -> None:
    """A director drops a game's record (the correction's reason says why): the result
    is the scoresheet's alone, and the analysis of the record's moves goes with it."""
    if not game.record:
        raise ApplicationError(
            _("this game has no record to drop"), code="no-record-to-drop", field="drop_record"
        )
    GameAnalysis.objects.filter(game=game).delete()
    game.record, game.verified, game.verification_note = "", False, {}


def _correct_from_record(game: Game, entry: CheckedEntry) -> None:
    checked = entry.checked
    if checked.text != game.record:  # its analysis tells of moves no longer recorded
        GameAnalysis.objects.filter(game=game).delete()
    game.white, game.black, game.winner = entry.white, entry.black, entry.winner
    game.kind, game.ended, game.cube = checked.kind, checked.ended, checked.cube
    game.record, game.verified = checked.text, True
    game.verification_note = entry.note()
    games_analyse_later(games=[game])  # once the correction commits


def _correct_by_hand(
    series: Series,
    games: list[Game],
    game: Game,
    *,
    winner: Player | None,
    kind: str | None,
    ended: str | None,
    cube: int | None,
    drop_record: bool,
) -> None:
    told = (game.winner_id, game.kind, game.ended, game.cube)
    if winner is not _UNSET:
        game.winner = winner
    game.kind = kind or game.kind
    game.ended = ended or game.ended
    game.cube = cube or game.cube
    if drop_record:
        _drop_record(game)
    elif game.record and game.verified:
        if (game.winner_id, game.kind, game.ended, game.cube) != told:
            # the verified record decides the result: one game, one truth
            raise ApplicationError(
                _("the engine verified this game's record, and the record decides the result: "
                  "to change the result, correct the record, or drop the record (saying why)"),
                code="result-contradicts-record",
                field="kind",
            )  # fmt: skip
    elif game.record:  # the stored record (never verified) no longer tells this result
        game.verified = False
        game.verification_note = note("corrected")
    rules = result_rules(series=series, games=games, number=game.number)
    rules.check(series=series, winner=game.winner, kind=game.kind, ended=game.ended, cube=game.cube)


@transaction.atomic
def game_correct(
    *,
    game: Game,
    by: User,
    reason: str,
    winner: Player | None = _UNSET,
    kind: str | None = None,
    ended: str | None = None,
    cube: int | None = None,
    record: str | None = None,
    drop_record: bool = False,
    expected_version: int | None = None,
) -> Game:
    """A director corrects a result: the earlier value is kept (who, when, before,
    after, why) and the series, standings and ratings follow. ``expected_version`` is the
    game's version the director saw: if someone changed it since, nothing is saved.
    A record the engine verified decides its game's result: a result by hand that
    contradicts it is refused, unless ``drop_record`` drops the record (and its analysis)."""
    seen, seen_games = series_and_games(game.series, lock=False)
    if not is_director(by, seen.tournament):
        raise PermissionDenied(
            _("only the tournament's directors may correct a result"), code="not-director"
        )
    entry = None
    if record is not None:  # replayed before the lock, as in game_enter_record
        _record_or_drop(drop_record)
        target = next(g for g in seen_games if g.pk == game.pk)
        entry = series_check_record(series=seen, games=seen_games, record=record, correcting=target)
    series, games = _locked_series(game.series)
    current = next(g for g in games if g.pk == game.pk)
    if expected_version is not None and current.version != expected_version:
        raise Conflict(
            _("game %(number)s was changed meanwhile (version %(version)s, not %(expected)s)"),
            code="game-changed",
            params={
                "number": current.number,
                "version": current.version,
                "expected": expected_version,
            },
            current=game_snapshot(current) | {"version": current.version},
        )
    if not reason or not reason.strip():
        raise ApplicationError(
            _("say why the result is corrected"), code="correction-reason", field="reason"
        )
    game = current
    before = game_snapshot(game)
    if record is not None:
        if _state(series, games) != _state(seen, seen_games):
            entry = series_check_record(series=series, games=games, record=record, correcting=game)
        assert entry is not None
        _correct_from_record(game, entry)
    else:
        _correct_by_hand(series, games, game, winner=winner, kind=kind, ended=ended, cube=cube,
                         drop_record=drop_record)  # fmt: skip
    after = game_snapshot(game)
    if after == before:
        raise ApplicationError(_("the correction changes nothing"), code="correction-no-change")
    decided = series_decided_after(series, games)
    if decided is not None and decided < len(games):
        raise ApplicationError(
            _("after this correction the series is decided by game %(decided)s, but games up "
              "to %(count)s are entered: correct or remove the later games first"),
            code="correction-decides-earlier",
            params={"decided": decided, "count": len(games)},
        )  # fmt: skip
    game.version += 1
    game.save()
    Correction.objects.create(
        game=game, by=signed_in(by), reason=reason.strip(), before=before, after=after
    )
    if series.status == SeriesStatus.FINISHED and decided is None:
        series.status = SeriesStatus.IN_PLAY  # the series goes on
    series_settle(series, games)
    return game
