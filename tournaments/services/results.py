"""Entering and correcting game results: quick scoresheet entry, full records verified
by the engine, and directors' corrections with an audit trail. Each call is one
transaction: a refused result changes nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db import transaction

from tournaments.models import (
    CLOSED_STATUSES,
    Correction,
    Game,
    GameEnd,
    GameKind,
    Player,
    Series,
    SeriesMode,
    SeriesStatus,
    Tournament,
    Variant,
)
from tournaments.services.engine_bridge import CheckedGame, check_record
from tournaments.services.errors import Conflict, PermissionDenied, ResultError
from tournaments.services.series import (
    series_decided_after,
    series_next_white,
    series_recompute,
    series_scores,
)

User = AuthUser | AnonymousUser


def signed_in(user: User | None) -> AuthUser | None:
    return user if isinstance(user, AuthUser) and user.is_authenticated else None


def is_director(user: User | None, tournament: Tournament) -> bool:
    """Superusers and the tournament's directors may direct it."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return tournament.directors.filter(pk=user.pk).exists()


def _locked_series(series: Series) -> tuple[Series, list[Game]]:
    locked = (
        Series.objects.select_for_update(of=("self",))
        .select_related("tournament", "player1", "player2")
        .get(pk=series.pk)
    )
    games = list(locked.games.select_related("white", "black", "winner").order_by("number"))
    return locked, games


def _check_outcome(
    t: Tournament, series: Series, winner: Player | None, kind: str, ended: str, cube: int
) -> None:
    if kind not in GameKind.values:
        raise ResultError(f"unknown result {kind!r}: oin, mars, koks or draw", field="kind")
    if ended not in GameEnd.values:
        raise ResultError(f"unknown ending {ended!r}", field="ended")
    if (kind == GameKind.DRAW) != (winner is None):
        raise ResultError("a draw has no winner, and any other result has one", field="winner")
    if winner is not None and winner.pk not in (series.player1_id, series.player2_id):
        raise ResultError(f"{winner} does not play in this series", field="winner")
    if kind == GameKind.DRAW and not (t.variant == Variant.LONG and t.last_roll):
        raise ResultError(
            "a game can end in a draw only with the right of last roll (L10)", field="kind"
        )
    if kind == GameKind.KOKS and t.variant != Variant.SHORT:
        raise ResultError("koks exists only in short backgammon (S6)", field="kind")
    if kind in (GameKind.MARS, GameKind.KOKS) and not t.mars:
        raise ResultError("with mars off every win is an oin (L8)", field="kind")
    if cube < 1 or cube & (cube - 1):
        raise ResultError("the cube shows 1, 2, 4, 8, ...", field="cube")
    if (cube > 1 or ended == GameEnd.DROPPED) and not (t.variant == Variant.SHORT and t.cube):
        raise ResultError(
            "this tournament plays without the doubling cube (S7)"
            if t.variant == Variant.SHORT
            else "only short backgammon has the doubling cube (S7)",
            field="cube",
        )
    if ended == GameEnd.DROPPED and kind != GameKind.OIN:
        raise ResultError("a dropped double scores the cube's value as an oin", field="kind")


def _check_next_game(series: Series, games: list[Game], number: int | None) -> int:
    if series.player1_id is None or series.player2_id is None:
        raise ResultError("the series has no two players yet", field="series")
    if series.status in CLOSED_STATUSES:
        raise ResultError(
            f"the series is {series.get_status_display()}: no more games can be entered",
            field="series",
        )
    expected = len(games) + 1
    if number is None:
        return expected
    if number < expected:
        raise Conflict(
            f"game {number} of this series is already entered; the next game is {expected}",
            field="number",
            current=game_snapshot(games[number - 1]) | {"number": number},
        )
    if number > expected:
        raise ResultError(f"game {number} cannot be entered before game {expected}", field="number")
    return number


def _check_colours(series: Series, games: list[Game], white: Player) -> Player:
    """The black player, once ``white`` is checked against the series rule (L12)."""
    if white.pk not in (series.player1_id, series.player2_id):
        raise ResultError(f"{white} does not play in this series", field="white")
    expected = series_next_white(series, games)
    if expected is not None and expected.pk != white.pk:
        rule = series.tournament.get_first_move_display()
        raise ResultError(
            f"{expected} starts game {len(games) + 1} and has white (first move: {rule})",
            field="white",
        )
    black = series.player2 if white.pk == series.player1_id else series.player1
    assert black is not None
    return black


def _finish(series: Series, games: list[Game]) -> None:
    was_finished = series.status == SeriesStatus.FINISHED
    series_recompute(series=series, games=games)
    if series.status == SeriesStatus.FINISHED or was_finished:
        from tournaments.services.pairings import BRACKET_FORMATS, bracket_sync
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
    black = _check_colours(series, games, white)
    _check_outcome(series.tournament, series, winner, kind, ended, cube)
    game = Game.objects.create(
        series=series, number=number, white=white, black=black, winner=winner, kind=kind,
        ended=ended, cube=cube, entered_by=signed_in(by),
    )  # fmt: skip
    _finish(series, [*games, game])
    return game


def _match_tags(series: Series, games: list[Game]) -> dict[str, str]:
    """For a series to N points with the cube: the match length and whether the next game
    is the Crawford game (the first after a player reaches N-1; S7)."""
    t = series.tournament
    if not (t.variant == Variant.SHORT and t.cube and t.series_mode == SeriesMode.POINTS):
        return {}
    target = series.target
    crawford_played = False
    for n in range(len(games) + 1):
        one, two = series_scores(series, games[:n])
        crawford = not crawford_played and target - 1 in (one, two)
        if n < len(games) and crawford:
            crawford_played = True
    return {"MatchLength": str(target), "Crawford": "on" if crawford else "off"}


def _players_of_record(series: Series, checked: CheckedGame) -> tuple[Player, Player]:
    names = {p.name.strip().casefold(): p for p in (series.player1, series.player2) if p}
    found = []
    for colour, name in (("White", checked.white), ("Black", checked.black)):
        player = names.get(name.strip().casefold())
        if player is None:
            known = " and ".join(p.name for p in names.values())
            raise ResultError(
                f'[{colour} "{name}"] is not a player of this series ({known})', field="record"
            )
        found.append(player)
    if found[0].pk == found[1].pk:
        raise ResultError("the record names the same player for white and black", field="record")
    return found[0], found[1]


@transaction.atomic
def game_enter_record(
    *, series: Series, record: str, number: int | None = None, by: User | None = None
) -> Game:
    """Enter a game from its full record: the engine verifies it before anything is
    saved, and its players, variant and rule tags must agree with the series."""
    series, games = _locked_series(series)
    checked = check_record(
        record, tournament=series.tournament, match_tags=_match_tags(series, games)
    )
    tagged_game = checked.tags.get("Game")
    if number is None and tagged_game:
        number = int(tagged_game)
    elif number is not None and tagged_game and int(tagged_game) != number:
        raise ResultError(f'the record says [Game "{tagged_game}"], not {number}', field="record")
    tagged_series = checked.tags.get("Series")
    if tagged_series and tagged_series != str(series.pk):
        raise ResultError(
            f'the record says [Series "{tagged_series}"]: it belongs to another series',
            field="record",
        )
    number = _check_next_game(series, games, number)
    white, black = _players_of_record(series, checked)
    _check_colours(series, games, white)
    winner = None if checked.winner is None else (white if checked.winner == "white" else black)
    _check_outcome(series.tournament, series, winner, checked.kind, checked.ended, checked.cube)
    game = Game.objects.create(
        series=series, number=number, white=white, black=black, winner=winner,
        kind=checked.kind, ended=checked.ended, cube=checked.cube, record=checked.text,
        verified=True, verification=f"ok, {describe_checked(checked)}",
        entered_by=signed_in(by),
    )  # fmt: skip
    _finish(series, [*games, game])
    return game


def describe_checked(checked: CheckedGame) -> str:
    result = "draw" if checked.winner is None else f"{checked.winner} {checked.kind}"
    return result + {"resigned": " by resignation", "dropped": " (double dropped)"}.get(
        checked.ended, ""
    )


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
    expected_version: int | None = None,
) -> Game:
    """A director corrects a result: the earlier value is kept (who, when, before,
    after, why) and the series, standings and ratings follow. ``expected_version`` is the
    game's version the director saw: if someone changed it since, nothing is saved."""
    series, games = _locked_series(game.series)
    if not is_director(by, series.tournament):
        raise PermissionDenied("only the tournament's directors may correct a result")
    current = next(g for g in games if g.pk == game.pk)
    if expected_version is not None and current.version != expected_version:
        raise Conflict(
            f"game {current.number} was changed meanwhile (version {current.version}, "
            f"not {expected_version})",
            current=game_snapshot(current) | {"version": current.version},
        )
    if not reason or not reason.strip():
        raise ResultError("say why the result is corrected", field="reason")
    game = next(g for g in games if g.pk == game.pk)
    before = game_snapshot(game)
    if record is not None:
        checked = check_record(record, tournament=series.tournament)
        white, black = _players_of_record(series, checked)
        game.white, game.black = white, black
        game.winner = None if checked.winner is None else (
            white if checked.winner == "white" else black
        )  # fmt: skip
        game.kind, game.ended, game.cube = checked.kind, checked.ended, checked.cube
        game.record, game.verified = checked.text, True
        game.verification = f"ok, {describe_checked(checked)}"
    else:
        if winner is not _UNSET:
            game.winner = winner
        game.kind = kind or game.kind
        game.ended = ended or game.ended
        game.cube = cube or game.cube
        if game.record:  # the stored record no longer tells this result
            game.verified = False
            game.verification = "corrected by hand: the record no longer matches the result"
    _check_outcome(series.tournament, series, game.winner, game.kind, game.ended, game.cube)
    after = game_snapshot(game)
    if after == before:
        raise ResultError("the correction changes nothing")
    decided = series_decided_after(series, games)
    if decided is not None and decided < len(games):
        raise ResultError(
            f"after this correction the series is decided by game {decided}, but games up to "
            f"{len(games)} are entered: correct or remove the later games first"
        )
    game.version += 1
    game.save()
    Correction.objects.create(
        game=game, by=signed_in(by), reason=reason.strip(), before=before, after=after
    )
    if series.status == SeriesStatus.FINISHED and decided is None:
        series.status = SeriesStatus.IN_PLAY  # the series goes on
    _finish(series, games)
    return game
