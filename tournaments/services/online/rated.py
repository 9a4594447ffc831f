"""A finished online series counted as every series is (docs/online.md, "Ratings"): a
`Series` of the game's "online play" tournament (one per game, rated, published, paired by
hand, no rounds), its games as `Game` rows with their verified records, and the ratings
brought up to date by the one rating service. The room keeps the live truth; this is its
copy where ratings, statistics, replays, downloads and the player's page read games."""

from __future__ import annotations

from django.contrib.auth.models import User as AuthUser
from django.utils import timezone

from tournaments.caching import people_changed
from tournaments.models import (
    Format,
    Game,
    GameEnd,
    Player,
    Room,
    RoomGameEnd,
    Series,
    SeriesMode,
    SeriesStatus,
    Tournament,
    Variant,
)
from tournaments.services.online.settings import rules_tournament, settings_of
from tournaments.services.ratings import ratings_after_series
from tournaments.services.records import check_record, match_tags
from tournaments.services.results import verified_note

ONLINE_NAMES = {
    Variant.LONG: "Online play: long nardy",
    Variant.SHORT: "Online play: short backgammon",
    Variant.LURC: "Online play: Lurč",
}


def online_tournament(variant: str) -> Tournament:
    """The game's online-play tournament (made the first time a series of it ends)."""
    name = ONLINE_NAMES[Variant(variant)]
    found = Tournament.objects.filter(name=name, variant=variant, format=Format.MANUAL).first()
    if found is not None:
        return found
    return Tournament.objects.create(
        name=name, variant=variant, format=Format.MANUAL, start_date=timezone.localdate(),
        rated=True, published=True,
    )  # fmt: skip


def _player(user: AuthUser) -> Player:
    """The user's player (made from the username when the user has none yet)."""
    player = Player.objects.filter(user=user).first()
    if player is None:
        player = Player.objects.create(name=user.get_username(), user=user)
    return player


def room_series_record(room: Room) -> Series | None:
    """The finished series of two users as a `Series` with its games, rated (a series
    against the bot, or aborted, is not: the bot has no rating)."""
    from tournaments.services.online.tournament_rooms import room_result_enter

    entered = room_result_enter(room=room)  # a tournament's series: entered there
    if entered is not None:
        return entered
    if room.a_user_id is None or room.b_user_id is None or not room.games.exists():
        return None
    s = settings_of(room.settings, room.variant)
    tournament = online_tournament(room.variant)
    assert room.a_user is not None and room.b_user is not None
    one, two = _player(room.a_user), _player(room.b_user)
    winner = {"a": one, "b": two}.get(room.winner)
    # in play while its games are added (the database refuses a game in a finished series)
    series = Series.objects.create(
        tournament=tournament, player1=one, player2=two, length=s.length,
        status=SeriesStatus.IN_PLAY,
    )  # fmt: skip
    rules = rules_tournament(s, room.variant)
    for g in room.games.order_by("number"):
        white, black = (one, two) if g.a_white else (two, one)
        extra = match_tags(length=s.length, crawford=g.crawford) if (
            s.cube and s.series_mode == SeriesMode.POINTS) else None  # fmt: skip
        checked = check_record(g.record, tournament=rules, match_tags=extra)
        ended = GameEnd.RESIGNED if g.ended == RoomGameEnd.TIMEOUT else checked.ended
        Game.objects.create(
            series=series, number=g.number, white=white, black=black,
            winner=None if not checked.winner else (white if checked.winner == "white" else black),
            kind=checked.kind, ended=ended, cube=checked.cube, record=checked.text,
            verified=True, verification_note=verified_note(checked),
        )  # fmt: skip
    series.status = SeriesStatus.FINISHED
    series.score1, series.score2, series.winner = room.a_score, room.b_score, winner
    series.finished_at = room.finished_at or timezone.now()
    series.save(update_fields=["status", "score1", "score2", "winner", "finished_at"])
    ratings_after_series(series=series)
    people_changed()
    return series
