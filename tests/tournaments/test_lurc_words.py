"""Lurč (every win one point, Z11; no lot, black starts, Z1) said alike everywhere: the
game page, its replay and the record check say "win", not "oin" beside "win"; the form
of a Lurč tournament offers no lot before each game, with or without its script."""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine import read_records, replay
from engine.selfplay import random_game
from tests.tournaments.pages_data import director
from tournaments.models import Player, Series, Tournament
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_record
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db
CS: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "cs"}
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def _fast(no_throttle: None) -> None:
    """Fast hashing, large rates and an empty cache (conftest.py)."""


def _lurc(by: Any = None) -> Tournament:
    t = tournament_create(name="Lurč cup", start_date=datetime.date(2026, 5, 1),
                          format="round_robin", series_length=1, variant="lurc")  # fmt: skip
    if by is not None:
        t.directors.add(by)
    for name in ("Alena Malá", "Bedřich Velký"):
        entry_register(tournament=t, player=Player.objects.create(name=name))
    round_generate(tournament=t)
    return t


def _record(series: Series) -> str:
    assert series.player1 is not None and series.player2 is not None
    text = random_game("lurc", random.Random(7))
    outcome = replay(read_records(text)[0]).outcome
    assert outcome is not None
    # black starts in Lurč (Z1): the record's black is the series' first player's opponent
    text = text.replace('[White "Random A"]', f'[White "{series.player1.name}"]')
    return text.replace('[Black "Random B"]', f'[Black "{series.player2.name}"]')


def _text(html: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_lurc_game_is_a_win_on_its_page_in_its_replay_and_in_the_record_check() -> None:
    """Before: "(výhra)" at the top, "(oin)" under the replay and in the record check."""
    boss = director()
    t = _lurc(boss)
    series = Series.objects.get(tournament=t)
    record = _record(series)
    client = Client()
    client.force_login(boss)
    check = client.post(reverse("tournaments:record_check", args=[series.pk]),
                        {"record": record}, **CS).json()  # fmt: skip
    assert check["ok"], check
    assert "(výhra)" in check["message"] and "oin" not in check["message"]
    game = game_enter_record(series=series, record=record)
    for language, win in (("cs", "(výhra)"), ("en", "(win)")):
        page = _text(
            client.get(reverse("tournaments:game", args=[game.pk]),
                       HTTP_ACCEPT_LANGUAGE=language).content.decode()
        )  # fmt: skip
        assert page.count(win) >= 2, (language, page)  # the result and the replay's
        assert "(oin)" not in page and "(mars)" not in page
    assert "(win)" in game.verification and "oin" not in game.verification


def test_the_form_of_a_lurc_tournament_offers_no_lot() -> None:
    """Before: the settings page still offered "by lot before every game"."""
    boss = director()
    t = _lurc(boss)
    client = Client()
    client.force_login(boss)
    html = client.get(reverse("tournaments:tournament_edit", args=[t.pk]), **EN).content.decode()
    select = re.search(r'<select name="first_move".*?</select>', html, re.S)
    assert select is not None
    assert 'value="lot"' not in select.group(0) and 'value="loser"' in select.group(0)
    page = client.get(reverse("tournaments:tournament_edit", args=[t.pk]), **EN)
    assert page.status_code == 200
    boss.is_staff = True
    boss.save(update_fields=["is_staff"])
    new = client.get(reverse("tournaments:tournament_new"), **EN).content.decode()
    assert 'value="lot"' in new  # a new tournament's game is not chosen yet: the script
