"""Czech words on the pages, through the doors where a reader met English or bad grammar:
the password's length, the evaluator's credit, a resignation in the replay, the bracket's
count, the later rounds of a correction, the confirmation mail, a woman's withdrawal, a
new player's grammatical gender, and the form's aria-describedby ids."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.pages_data import director, recorded_game, round_robin
from tournaments.models import Entry, GameAnalysis, Player, Series, Tournament
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_record
from tournaments.services.setup import entry_register, tournament_create
from tournaments.services.sheets import later_rounds_warnings
from tournaments.wording.evaluator import evaluator_credit

pytestmark = pytest.mark.django_db
CS: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "cs"}
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}
NBSP = "\xa0"


@pytest.fixture(autouse=True)
def _fast(no_throttle: None) -> None:
    """Fast hashing, large rates and an empty cache (conftest.py)."""


def _text(response: object) -> str:
    html = response.content.decode()  # type: ignore[attr-defined]
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_short_password_is_refused_in_czech_only() -> None:
    """Before: "This password is too short. It must contain at least 8 characters." beside
    "Heslo je příliš běžné." (Django 5.2 changed the message; its Czech catalogue did not)."""
    form = {"username": "nova", "email": "nova@example.org", "password": "abc12"}
    page = Client().post(reverse("tournaments:signup"), form, **CS)
    text = _text(page)
    assert page.status_code == 400
    assert "Heslo je příliš krátké. Musí mít délku aspoň 8 znaků." in text
    assert "This password" not in text and "characters" not in text


def test_the_analysis_is_credited_in_words() -> None:
    """Before: "(long (50000 games, 4a99885))"."""
    game = recorded_game(round_robin(4))
    GameAnalysis.objects.create(
        game=game, source="net", evaluator="long (50000 games, 4a99885)",
        white_error_rate=1, black_error_rate=2, white_luck_rate=0, black_luck_rate=0,
        record_version=game.version,
    )  # fmt: skip
    page = _text(Client().get(reverse("tournaments:game", args=[game.pk]), **CS))
    assert f"síť pro dlouhé vrhcáby, 50{NBSP}000 partií" in page
    assert "4a99885" not in page and "games" not in page
    with translation.override("en"):
        assert evaluator_credit("long (1 games, x)") == "the network for long nardy, 1 game"
    with translation.override("cs"):
        assert evaluator_credit("short (3 games, x)") == "síť pro krátký backgammon, 3 partie"
        assert evaluator_credit("something else") == "something else"


def test_a_resignation_is_said_in_words_in_the_replay() -> None:
    """Before: the move list read "B resigns" on a Czech page."""
    t = tournament_create(name="Cup", start_date=datetime.date(2026, 5, 1),
                          format="round_robin", series_length=1)  # fmt: skip
    for name in ("Alena Malá", "Bedřich Velký"):
        entry_register(tournament=t, player=Player.objects.create(name=name))
    round_generate(tournament=t)
    series = Series.objects.get(tournament=t)
    assert series.player1 is not None and series.player2 is not None
    record = (
        f'[Variant "long"]\n[White "{series.player1.name}"]\n[Black "{series.player2.name}"]\n'
        '[Result "white mars"]\n\n1. 52: 24/19/17 31: 24/21/20\n2. 44: 17/13/9/5/1 B resigns\n'
    )
    game = game_enter_record(series=series, record=record)
    url = reverse("tournaments:game", args=[game.pk])
    czech, english = _text(Client().get(url, **CS)), _text(Client().get(url, **EN))
    assert "černý vzdává" in czech and "resigns" not in czech
    assert "black resigns" in english


@pytest.mark.parametrize(("players", "said"), [(8, "4 série"), (16, "8 sérií")])
def test_the_bracket_made_is_counted_in_czech(players: int, said: str) -> None:
    """Before: "Pavouk je vytvořen: 4 sérií"."""
    boss = director()
    t = tournament_create(name="KO", start_date=datetime.date(2026, 6, 1),
                          format="single_elimination", series_length=1)  # fmt: skip
    t.directors.add(boss)
    for i in range(players):
        entry_register(tournament=t, player=Player.objects.create(name=f"P{i}"))
    client = Client()
    client.force_login(boss)
    page = client.post(reverse("tournaments:pair", args=[t.pk, "bracket"]), follow=True, **CS)
    assert f"Pavouk je vytvořen: {said}." in _text(page)


def test_later_rounds_are_listed_and_agreed_with_in_czech() -> None:
    """Before: "2, 3. kolo bylo nalosováno ... jeho rozlosování"."""
    t = round_robin(4)  # round 1 played, round 2 paired
    round_generate(tournament=t, override=True)
    first = Series.objects.filter(tournament=t, round__number=1).first()
    assert first is not None
    with translation.override("cs"):
        czech = later_rounds_warnings(series=first)[0]
    with translation.override("en"):
        english = later_rounds_warnings(series=first)[0]
    assert czech.startswith("2. a 3. kolo byla nalosována") and "jejich rozlosování" in czech
    assert english.startswith("Rounds 2 and 3 were paired") and "their pairings" in english
    second = Series.objects.filter(tournament=t, round__number=2).first()
    assert second is not None
    with translation.override("cs"):
        assert later_rounds_warnings(series=second)[0].startswith("3. kolo bylo nalosováno")


def test_the_confirmation_mail_says_the_game_in_czech() -> None:
    """Before: "na webu turnajů v dlouhé vrhcáby"."""
    form = {"username": "nova", "email": "nova@example.org", "password": "a-long-secret-1"}
    Client().post(reverse("tournaments:signup"), form, **CS)
    body = mail.outbox[0].body
    assert "v dlouhých vrhcábech" in body and "v dlouhé vrhcáby" not in body
    assert "Odkaz platí 3 dny" in body


def _withdrawn_round_robin() -> Tournament:
    t = round_robin(4)
    names = ["Hana Šťastná", "Petr Novák", "Alex Kim"]
    genders = ["f", "m", ""]
    entries = Entry.objects.filter(tournament=t).select_related("player").order_by("player_id")
    for entry, name, gender in zip(entries, names, genders, strict=False):
        Player.objects.filter(pk=entry.player_id).update(name=name, gender=gender)
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
    Tournament.objects.filter(pk=t.pk).update(cache_version=t.cache_version + 1)
    return t


def test_a_withdrawn_player_is_named_by_their_grammatical_gender() -> None:
    """Before: "Hana Šťastná (odstoupil)"."""
    t = _withdrawn_round_robin()
    page = _text(Client().get(reverse("tournaments:tournament", args=[t.pk]), **CS))
    assert "Hana Šťastná (odstoupila)" in page
    assert "Petr Novák (odstoupil)" in page
    assert "Alex Kim (odstoupil(a))" in page
    csv = Client().get(f"/api/tournaments/{t.pk}/crosstable.csv", **CS).content.decode()
    assert "Hana Šťastná (odstoupila)" in csv and "Alex Kim (odstoupil(a))" in csv


def test_a_new_players_gender_is_guessed_from_a_czech_surname_and_can_be_chosen() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    Series.objects.filter(tournament=t).delete()
    t.rounds.all().delete()
    client = Client()
    client.force_login(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    for name, chosen, expected in [
        ("Kateřina Horáková", "", "f"),
        ("Hana Šťastná", "", "f"),
        ("Jan Novák", "", ""),
        ("Jiří Skála", "m", "m"),
        ("Dana Kim", "f", "f"),
    ]:
        answer = client.post(url, {"new_name": name, "new_gender": chosen, "confirm_new": "1"})
        assert answer.status_code == 302, name
        assert Player.objects.get(name=name).gender == expected, name
    api = Client()
    api.force_login(User.objects.create_superuser("staff", password="a-long-secret-1"))
    made = api.post("/api/players/", {"name": "Eva Malá"}, content_type="application/json")
    assert made.status_code == 201 and made.json()["gender"] == "f"
    changed = api.patch(f"/api/players/{made.json()['id']}/", {"gender": ""},
                        content_type="application/json")  # fmt: skip
    assert changed.status_code == 200 and Player.objects.get(name="Eva Malá").gender == ""


@pytest.mark.parametrize("name", ["tournaments:signup", "login", "tournaments:signup_again"])
def test_every_id_a_field_is_described_by_exists(name: str) -> None:
    """Before: aria-describedby="id_username_helptext" named an id no element had."""
    for data in (None, {"username": "", "email": "x", "password": ""}):
        client = Client()
        url = reverse(name)
        html = (client.get(url) if data is None else client.post(url, data)).content.decode()
        named = {i for ids in re.findall(r'aria-describedby="([^"]+)"', html) for i in ids.split()}
        assert named or name != "tournaments:signup", url
        missing = {i for i in named if f'id="{i}"' not in html}
        assert not missing, (url, missing)
