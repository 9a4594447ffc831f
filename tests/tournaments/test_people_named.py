"""A person is named as the player they are, not by their login: the confirmations page
(who submitted, who rejected) and a game against the bot's record; and a player's own
games against the bot are on their player page (for them only: the bot games are
private, as their pages are)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Player, Series
from tournaments.services.botgames import botgame_resign, botgame_start
from tournaments.services.setup import tournament_create
from tournaments.services.submissions import submission_create, submission_reject

pytestmark = pytest.mark.django_db
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def _fast(no_throttle: None) -> None:
    """Fast hashing, large rates and an empty cache (conftest.py)."""


def test_the_confirmations_name_the_player_not_the_login() -> None:
    t = tournament_create(name="Přebor", start_date=datetime.date(2026, 11, 29))
    jana_login, petr_login = User.objects.create_user("jn77"), User.objects.create_user("pk12")
    jana = Player.objects.create(name="Jana Nováková", user=jana_login)
    petr = Player.objects.create(name="Petr Kos", user=petr_login)
    series = Series.objects.create(tournament=t, player1=jana, player2=petr)
    submission_create(series=series, by=jana_login, number=1, white=jana, winner=jana,
                      kind="oin")  # fmt: skip
    client = Client()
    client.force_login(petr_login)
    page = client.get(reverse("tournaments:confirmations"), **EN).content.decode()
    assert "submitted by Jana Nováková" in page and "jn77" not in page
    rejected = submission_create(series=series, by=petr_login, number=2, white=petr,
                                 winner=petr, kind="oin")  # fmt: skip
    submission_reject(submission=rejected, by=jana_login, note="not so")
    mine = client.get(reverse("tournaments:confirmations"), **EN).content.decode()
    assert "Jana Nováková: “not so”" in mine and "jn77" not in mine
    series_page = client.get(reverse("tournaments:series", args=[series.pk]), **EN)
    assert "jn77" not in series_page.content.decode()


def test_a_bot_game_record_names_the_player_and_the_player_page_lists_it() -> None:
    login = User.objects.create_user("hk1", password="a-long-secret-1")
    player = Player.objects.create(name="Hana Kratochvílová", user=login)
    game = botgame_start(user=login, level="beginner", colour="white")
    assert '[White "Hana Kratochvílová"]' in game.record and "hk1" not in game.record
    url = reverse("tournaments:player", args=[player.pk])
    owner = Client()
    owner.force_login(login)
    page = owner.get(url, **EN).content.decode()
    assert 'id="player-bot-games"' in page
    assert reverse("tournaments:play_game", args=[game.pk]) in page
    for other in (Client(), _signed_in_stranger()):
        seen = other.get(url, **EN).content.decode()
        assert 'id="player-bot-games"' not in seen
        assert reverse("tournaments:play_game", args=[game.pk]) not in seen


def _signed_in_stranger() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("stranger"))
    return client


def test_a_finished_bot_game_page_is_sent_compressed() -> None:
    """A finished game's page carries every position of its replay (345 KB of HTML for a
    whole game): sent gzipped, as a tournament game's page is."""
    login = User.objects.create_user("hk1", password="a-long-secret-1")
    game = botgame_start(user=login, level="beginner", colour="white")
    botgame_resign(game_id=game.pk, user=login, version=game.version)
    client = Client()
    client.force_login(login)
    url = reverse("tournaments:play_game", args=[game.pk])
    plain = client.get(url, **EN)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip", **EN)
    assert plain.status_code == packed.status_code == 200
    assert 'id="replay"' in plain.content.decode()
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) * 3 < len(plain.content)
