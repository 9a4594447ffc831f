"""Fixtures shared by the API tests (imported by the test_api_* modules; no tests here).

A published round-robin tournament with two series (Jana-Petr, Eva-Karel), each player
linked to a user account; a director, a director of another tournament, a staff member."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from engine import Rules, read_records, replay
from engine.selfplay import random_game
from tournaments.models import Club, Entry, Player, Series, Tournament

BIG_RATES = {k: "100000/minute" for k in ("anon", "user", "token", "verify")}


@pytest.fixture
def no_throttle(settings, monkeypatch):
    """Throttling must not make tests flaky: large rates, and an empty cache.
    DRF copies the rates into the throttle class when it is imported, so that copy is
    patched too."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": BIG_RATES}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", BIG_RATES)
    cache.clear()
    yield
    cache.clear()


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


@pytest.fixture
def world(db, no_throttle) -> World:
    return make_world()
