"""The rough edges of a director's day, each through its page: the series page
after a refused entry, Lurč's game-1 refusal, the pairing's reason after a swap, Czech
words and numbers, the re-pairing confirmation, Lurč result names, the Crawford game, the
scoresheet's length, the player's form after a submission, the tournament form's
choices."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import EN
from tournaments.models import Player, Series, Tournament
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db

S2_TEXT = "opening lot, which is white&#x27;s first roll (S2)"


def _event(variant: str, players: int = 2, **settings: object) -> tuple[Tournament, Client]:
    boss = User.objects.create_user("boss", password="a-long-secret-1")
    defaults: dict[str, object] = {
        "variant": variant, "format": "round_robin", "series_mode": "games",
        "series_length": 3, "first_move": "loser",
    }  # fmt: skip
    t = tournament_create(
        name=f"{variant} day", start_date=datetime.date(2026, 12, 1), **(defaults | settings)
    )
    t.directors.add(boss)
    for name in ("Adam", "Bára", "Cyril", "Dana", "Emil", "Filip")[:players]:
        entry_register(tournament=t, player=Player.objects.create(name=name))
    round_generate(tournament=t)
    client = Client()
    client.force_login(boss)
    return t, client


def _series(t: Tournament) -> Series:
    series = Series.objects.filter(tournament=t, player2__isnull=False).order_by("pk").first()
    assert series is not None
    return series


@pytest.mark.parametrize("variant", ["long", "lurc"])
@pytest.mark.parametrize("door", ["enter_quick", "enter_record"])
def test_a_refused_entry_shows_the_page_of_a_fresh_get(variant: str, door: str) -> None:
    """The starter's form stays, no short-backgammon S2 sentence."""
    t, client = _event(variant)
    series = _series(t)
    fresh = client.get(reverse("tournaments:series", args=[series.pk]), **EN).content.decode()
    assert 'name="starter"' in fresh and S2_TEXT not in fresh
    data = {"number": "1", "record": "this is no record"} if door == "enter_record" else {
        "number": "1", "kind": "oin", "ended": "played"}  # fmt: skip
    refused = client.post(reverse(f"tournaments:{door}", args=[series.pk]), data, **EN)
    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'name="starter"' in page
    assert S2_TEXT not in page
    assert 'id="quick-form"' in page and 'id="record-form"' in page


def test_lurc_game_1_with_wrong_colours_names_the_directors_choice_l12() -> None:
    """There is no previous game; the director chose the starter."""
    t, client = _event("lurc")
    series = _series(t)
    assert series.player1 is not None and series.player2 is not None
    client.post(
        reverse("tournaments:series_starter", args=[series.pk]), {"starter": series.player1.pk}
    )
    # in Lurč the starter has black (Z1): player 1 given white is the wrong colour
    wrong = {"number": "1", "black": series.player2.pk, "winner": series.player1.pk,
             "kind": "oin", "ended": "played"}  # fmt: skip
    page = client.post(reverse("tournaments:enter_quick", args=[series.pk]), wrong, **EN)
    assert page.status_code == 400
    text = page.content.decode()
    assert "first move: the director&#x27;s choice" in text
    assert "loser of the previous game" not in text


def test_why_paired_names_players_and_follows_a_swap() -> None:
    """No database ids, and no stale reason after the director's swap."""
    t, client = _event("long", players=4, format="swiss", series_length=1, first_move="lot")
    one, two = Series.objects.filter(tournament=t).order_by("table")
    for s in (one, two):
        page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
        assert "Why paired:" in page and "#" not in page.split("Why paired:")[1].split("</p>")[0]
    assert one.player2 is not None and two.player2 is not None
    swapped = client.post(
        reverse("tournaments:round_swap", args=[t.pk, 1]),
        {"player_a": one.player2.pk, "player_b": two.player2.pk},
    )
    assert swapped.status_code == 302
    for s in (one, two):
        page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
        reason = page.split("Why paired:")[1].split("</p>")[0]
        assert reason.strip() == "changed by the director"


def test_the_upload_button_starts_and_the_series_page_links_the_upload() -> None:
    """Issue 24 item 6: "Spustit", not "Začátek" (the replay's start); the multi-game
    upload is linked from the series page of its directors."""
    t, client = _event("long")
    series = _series(t)
    User.objects.filter(username="boss").update(is_staff=True)  # may import archives
    cs = {"HTTP_ACCEPT_LANGUAGE": "cs"}
    page = client.get(reverse("tournaments:series", args=[series.pk]), **cs).content.decode()
    upload = reverse("tournaments:records_upload", args=[series.pk])
    assert f'href="{upload}"' in page
    for url in (upload, reverse("tournaments:tournament_import")):
        form = client.get(url, **cs).content.decode()
        button = form.split('<button type="submit">')[1].split("</button>")[0]
        assert button == "Spustit", url


def test_re_pairing_a_round_with_games_is_refused_on_its_confirmation_page() -> None:
    """Issue 24 item 7: the page says it cannot and offers no "Yes, pair it again"."""
    t, client = _event("long", players=4, format="swiss", series_length=1, first_move="lot")
    url = reverse("tournaments:round_action", args=[t.pk, 1, "repair"])
    assert "Yes, pair it again" in client.get(url, **EN).content.decode()
    series = _series(t)
    assert series.player1 is not None
    game_enter_quick(series=series, white=series.player1, winner=series.player1, kind="oin")
    page = client.get(url, **EN).content.decode()
    assert "Yes, pair it again" not in page and "<button" not in page.split("<main")[1]
    assert "Round 1 has 1 games entered: its pairings can no longer change." in page
    delete = reverse("tournaments:round_action", args=[t.pk, 1, "delete"])
    assert "Yes, delete the round" not in client.get(delete, **EN).content.decode()
