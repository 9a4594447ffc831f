"""Plain helpers shared by the tests in tests/tournaments/ (their fixtures are in
conftest.py beside this file).

``make_world``: a published round-robin tournament with two series (Jana-Petr,
Eva-Karel), each player linked to a user account; a director, a director of another
tournament, a staff member."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from engine import Rules, read_records, replay
from engine.selfplay import random_game
from tournaments.models import Club, Entry, Player, PlayerRating, Series, Tournament, Variant
from tournaments.services.results import game_enter_quick, game_enter_record
from tournaments.services.series import series_next_white

BIG_RATES = {
    k: "100000/minute"
    for k in ("anon", "user", "token", "verify", "signup", "signup_mail", "botgame")
}

# Extra request headers for the test client: pages in English.
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


def a_record(white: str, black: str, *, seed: int, want: str | None = None) -> str:
    """A legal finished long nardy game between the two players (the first seed from
    ``seed`` on whose result starts with ``want``)."""
    rng = random.Random(seed)
    while True:
        text = random_game("long", rng, Rules())
        result = replay(read_records(text)[0]).outcome
        assert result is not None
        if want is None or result.result.startswith(want):
            break
    text = text.replace('[White "Random A"]', f'[White "{white}"]')
    return text.replace('[Black "Random B"]', f'[Black "{black}"]')


@dataclass
class World:
    tournament: Tournament
    other: Tournament
    series: Series
    other_series: Series
    players: dict[str, Player]
    users: dict[str, User]

    def client(self, role: str | None) -> APIClient:
        client = APIClient()
        if role is not None:
            client.force_authenticate(self.users[role])
        return client

    def token(self, role: str) -> str:
        return Token.objects.get_or_create(user=self.users[role])[0].key


def make_world() -> World:
    club = Club.objects.create(name="Brno", city="Brno", country="CZ")
    users = {
        name: User.objects.create_user(name, password="pw-" + name)
        for name in ("jana", "petr", "eva", "karel", "boss", "otherboss")
    }
    users["staff"] = User.objects.create_user("staff", password="pw-staff", is_staff=True)
    players = {
        name: Player.objects.create(name=name.title(), club=club, user=users[name])
        for name in ("jana", "petr", "eva", "karel")
    }
    t = Tournament.objects.create(
        name="Přebor", start_date=datetime.date(2026, 11, 1), format="round_robin",
        series_length=5,
    )  # fmt: skip
    t.directors.add(users["boss"])
    other = Tournament.objects.create(name="Other", start_date=datetime.date(2026, 10, 1))
    other.directors.add(users["otherboss"])
    for p in players.values():
        Entry.objects.create(tournament=t, player=p)
    series = Series.objects.create(
        tournament=t, player1=players["jana"], player2=players["petr"], table=1
    )
    other_series = Series.objects.create(
        tournament=t, player1=players["eva"], player2=players["karel"], table=2
    )
    return World(t, other, series, other_series, players, users)


def tournament_data(**changes: str) -> dict[str, str]:
    data = {
        "name": "Spring cup", "start_date": "2026-04-01", "variant": "long",
        "format": "round_robin", "published": "on", "series_mode": "points",
        "series_length": "3", "first_move": "loser", "mars": "on", "block_check": "turn-end",
        "block_ahead": "anywhere", "draw_scoring": "half", "points_series_win": "1",
        "points_series_draw": "0.5", "points_series_loss": "0", "points_per_game_point": "0",
        "bye_points": "1", "forfeit_game_points": "0", "bracket_reset": "on",
        "withdrawal": "forfeit", "tie_break_1": "buchholz", "tie_break_2": "series_won",
    }  # fmt: skip
    data.update(changes)
    return data


def next_colours(series: Series) -> tuple[Player, Player]:
    games = list(series.games.select_related("white", "black", "winner").order_by("number"))
    white = series_next_white(series, games) or series.player1
    assert white is not None
    black = series.player2 if white.pk == series.player1_id else series.player1
    assert black is not None
    return white, black


def play_out(series: Series, *, seed: int, records: bool = True) -> None:
    """Enter games until the series is decided."""
    while True:
        series.refresh_from_db()
        if series.closed:
            return
        white, black = next_colours(series)
        if records:
            game_enter_record(series=series, record=a_record(white.name, black.name, seed=seed))
        else:
            game_enter_quick(series=series, white=white, winner=white, kind="mars")
        seed += 1


def admin_form_data(response: Any) -> dict[str, Any]:
    """The admin change form's current values as a browser would post them."""
    data: dict[str, Any] = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms.append(inline.formset.management_form)
        forms.extend(inline.formset.forms)
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            key = form.add_prefix(name)
            if value is None or value is False:
                continue
            if value is True:
                data[key] = "on"
            elif isinstance(value, list | tuple):
                data[key] = [getattr(v, "pk", v) for v in value]
            elif hasattr(value, "pk"):
                data[key] = value.pk
            elif isinstance(value, datetime.date):
                data[key] = value.isoformat()
            else:
                data[key] = value
    return data


# Beyond any clock reading in µs (new_cache_version) and within a bigint.
FAR_AHEAD = 10**17


def ahead_of_the_clock(t: Tournament) -> int:
    """Set ``t``'s version beyond the clock, so that a bump is exactly +1 (a bump gives
    max(version + 1, now)) and a test can tell one bump from two; the version set."""
    Tournament.objects.filter(pk=t.pk).update(cache_version=FAR_AHEAD)
    t.cache_version = FAR_AHEAD
    return FAR_AHEAD


def rated_player(name: str, rating: float, *, variant: str = Variant.LONG, **fields: Any) -> Player:
    """A new player whose rating in ``variant`` starts at ``rating`` (what a registration
    with a rating gives), for tests of seeding by rating."""
    player = Player.objects.create(name=name, **fields)
    PlayerRating.objects.create(player=player, variant=variant, rating=rating, start_rating=rating)
    return player


def rating_of(player: Player, variant: str = Variant.LONG) -> PlayerRating:
    """The player's rating in ``variant`` as stored now (1500 and no experience unsaved,
    where they have none)."""
    found = PlayerRating.objects.filter(player=player, variant=variant).first()
    return found or PlayerRating(player=player, variant=variant)
