"""Rounds (docs/director_rounds.md): a director who is not a superuser deletes or re-pairs a round
before any result (after a confirmation), swaps players or moves the bye with the
pairing's checks shown as warnings, and chooses who starts game 1; through the pages and
the API alike."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.helpers import EN, rated_player
from tests.tournaments.pages_data import director, round_robin
from tournaments.models import Player, ProhibitedPair, Round, Series, Tournament
from tournaments.services.pairings import entry_withdraw, round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


def api_as(user: User) -> APIClient:
    """A client of ``user`` that reads the answers in English (the messages are asserted)."""
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    return api


def last_round(t: Tournament) -> Round:
    rnd = t.rounds.order_by("-number").first()
    assert rnd is not None
    return rnd


def bye_of(rnd: Round) -> Series:
    return rnd.series.select_related("player1").get(player2__isnull=True)


def test_a_round_is_deleted_after_a_confirmation_page(client: Client) -> None:
    boss = director()
    t = round_robin(4, by=boss)
    rnd = last_round(t)
    client.force_login(boss)
    url = reverse("tournaments:round_action", args=[t.pk, rnd.number, "delete"])
    page = client.get(url, **EN)
    assert page.status_code == 200 and "Yes, delete the round" in page.content.decode()
    assert Round.objects.filter(pk=rnd.pk).exists()  # the page asks, it does not delete
    assert client.post(url).status_code == 302
    assert not Round.objects.filter(pk=rnd.pk).exists()
    assert not Series.objects.filter(round_id=rnd.pk).exists()


def test_a_round_with_results_or_before_a_later_round_is_not_deleted(client: Client) -> None:
    boss = director()
    t = round_robin(4, by=boss)
    first = t.rounds.get(number=1)
    client.force_login(boss)
    url = reverse("tournaments:round_action", args=[t.pk, 1, "delete"])
    page = client.post(url, follow=True, **EN).content.decode()
    assert "not the last round" in page
    second = last_round(t)
    s = second.series.filter(player2__isnull=False).select_related("player1", "player2").first()
    assert s is not None and s.player1 is not None
    game_enter_quick(series=s, white=s.player1, winner=s.player1, kind="oin")
    page = client.post(
        reverse("tournaments:round_action", args=[t.pk, 2, "delete"]), follow=True, **EN
    ).content.decode()
    assert "has 1 games entered" in page
    assert (
        Round.objects.filter(pk=first.pk).exists() and Round.objects.filter(pk=second.pk).exists()
    )


def test_only_the_directors_change_a_round(client: Client) -> None:
    t = round_robin(4, by=director())
    someone = director("someone")
    client.force_login(someone)
    for name, args in (
        ("round_manage", [t.pk, 2]),
        ("round_action", [t.pk, 2, "delete"]),
    ):
        assert client.get(reverse(f"tournaments:{name}", args=args)).status_code == 403
        assert client.post(reverse(f"tournaments:{name}", args=args)).status_code == 403
    assert Round.objects.filter(tournament=t, number=2).exists()
    response = api_as(someone).post(f"/api/rounds/{last_round(t).pk}/delete/")
    assert response.status_code == 403


def swiss(players: int, *, by: User) -> Tournament:
    t = tournament_create(
        name="Swiss cup", start_date=datetime.date(2026, 5, 1), format="swiss", series_length=1
    )
    t.directors.add(by)
    for i in range(players):
        entry_register(tournament=t, player=rated_player(f"P{i + 1}", 1600 - 10 * i))
    return t


def test_re_pairing_after_a_withdrawal_pairs_the_remaining_players(client: Client) -> None:
    boss = director()
    t = swiss(4, by=boss)
    rnd = round_generate(tournament=t)
    leaving = Player.objects.get(name="P1")
    entry_withdraw(tournament=t, player=leaving)  # the opponent wins by forfeit, unplayed
    client.force_login(boss)
    url = reverse("tournaments:round_action", args=[t.pk, rnd.number, "repair"])
    assert "Yes, pair it again" in client.get(url, **EN).content.decode()
    assert client.post(url).status_code == 302
    new = last_round(t)
    assert new.number == 1 and new.pk != rnd.pk
    paired = {p for s in new.series.all() for p in (s.player1_id, s.player2_id) if p}
    assert leaving.pk not in paired and len(paired) == 3  # two play, one has the bye
    assert new.series.filter(player2__isnull=True).count() == 1


def test_re_pairing_through_the_api() -> None:
    boss = director()
    t = swiss(4, by=boss)
    rnd = round_generate(tournament=t)
    entry_withdraw(tournament=t, player=Player.objects.get(name="P2"))
    response = api_as(boss).post(f"/api/rounds/{rnd.pk}/repair/")
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 1
    assert not Round.objects.filter(pk=rnd.pk).exists()
    response = api_as(boss).post(f"/api/rounds/{response.json()['id']}/delete/")
    assert response.status_code == 200 and response.json() == {"deleted": 1}
    assert not t.rounds.exists()


def test_moving_the_bye_through_the_page_warns_of_a_second_bye(client: Client) -> None:
    """The bye moves to a player who had it in round 1: a warning, not a refusal."""
    boss = director()
    t = round_robin(5, by=boss)  # round 1 played, round 2 paired; one bye each round
    first_bye = bye_of(t.rounds.get(number=1)).player1
    rnd = last_round(t)
    assert first_bye is not None and bye_of(rnd).player1 != first_bye
    holder = bye_of(rnd).player1
    assert holder is not None
    client.force_login(boss)
    page = client.post(
        reverse("tournaments:round_swap", args=[t.pk, rnd.number]),
        {"player_a": holder.pk, "player_b": first_bye.pk},
        follow=True,
        **EN,
    ).content.decode()
    assert "changed places" in page
    assert f"{first_bye.name} had a bye in round 1 already." in page
    bye = bye_of(rnd)
    assert bye.player1 == first_bye and bye.winner_id == first_bye.pk  # the bye's win moves
    assert (
        rnd.series.filter(player2__isnull=False).filter(player1=holder).exists()
        or rnd.series.filter(player2=holder).exists()
    )


def test_a_swap_into_a_repeat_or_prohibited_pairing_is_made_with_warnings() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    met = t.rounds.get(number=1).series.select_related("player1", "player2").first()
    assert met is not None and met.player1 is not None and met.player2 is not None
    a, b = met.player1, met.player2
    ProhibitedPair.objects.create(tournament=t, player_a=a, player_b=b, reason="brothers")
    rnd = last_round(t)
    # b's partner in round 2 changes places with a: a and b meet again
    partner_series = rnd.series.get(pk__in=[s.pk for s in rnd.series.all() if b.pk in (
        s.player1_id, s.player2_id)])  # fmt: skip
    partner = (
        partner_series.player1 if partner_series.player2_id == b.pk else partner_series.player2
    )
    assert partner is not None
    response = api_as(boss).post(
        f"/api/rounds/{rnd.pk}/swap/", {"player_a": partner.pk, "player_b": a.pk}, format="json"
    )
    assert response.status_code == 200, response.content
    codes = {w["code"] for w in response.json()["warnings"]}
    assert codes == {"repeat", "prohibited"}
    assert rnd.series.filter(player1__in=[a, b], player2__in=[a, b]).exists()
    listed = api_as(boss).get(f"/api/rounds/{rnd.pk}/warnings/").json()
    assert {w["code"] for w in listed} == {"repeat", "prohibited"}


def test_a_started_series_keeps_its_pairing() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    rnd = last_round(t)
    one, two = rnd.series.select_related("player1", "player2")[:2]
    assert one.player1 is not None and two.player1 is not None
    game_enter_quick(series=one, white=one.player1, winner=one.player1, kind="oin")
    response = api_as(boss).post(
        f"/api/rounds/{rnd.pk}/swap/",
        {"player_a": one.player1.pk, "player_b": two.player1.pk},
        format="json",
    )
    assert response.status_code == 400 and "has a result" in response.json()["detail"]


# who starts game 1 -----------------------------------------------------------------


def test_the_director_chooses_who_starts_game_1(client: Client) -> None:
    """L12: by lot unless chosen; the choice is then the rule the result entry checks."""
    boss = director()
    t = round_robin(4, by=boss)
    s = last_round(t).series.select_related("player1", "player2").first()
    assert s is not None and s.player1 is not None and s.player2 is not None
    client.force_login(boss)
    series_url = reverse("tournaments:series", args=[s.pk])
    assert "Who starts game 1" in client.get(series_url, **EN).content.decode()
    response = client.post(reverse("tournaments:series_starter", args=[s.pk]),
                           {"starter": s.player2.pk})  # fmt: skip
    assert response.status_code == 302
    page = client.get(series_url, **EN).content.decode()
    assert f'<option value="{s.player2.pk}" selected>' in page
    response = client.post(
        reverse("tournaments:enter_quick", args=[s.pk]),
        {"number": 1, "white": s.player1.pk, "winner": s.player1.pk, "kind": "oin",
         "ended": "played", "cube": 1},
        **EN,
    )  # fmt: skip
    assert response.status_code == 400 and f"{s.player2.name} starts game 1" in (
        response.content.decode()
    )
    answer = api_as(boss).post(f"/api/series/{s.pk}/starter/", {"starter": None}, format="json")
    assert answer.status_code == 200
    game_enter_quick(series=s, white=s.player1, winner=s.player1, kind="oin")  # by lot again


def test_the_lot_that_is_white_s_first_roll_cannot_be_chosen() -> None:
    """S2: in short backgammon with opening_roll = lot the lot is white's first roll."""
    boss = director()
    t = tournament_create(name="Short", start_date=datetime.date(2026, 5, 1), variant="short")
    t.directors.add(boss)
    a, b = Player.objects.create(name="A"), Player.objects.create(name="B")
    s = Series.objects.create(tournament=t, player1=a, player2=b)
    response = api_as(boss).post(f"/api/series/{s.pk}/starter/", {"starter": a.pk}, format="json")
    assert response.status_code == 400 and response.json()["rule"] == "S2"
    someone = director("someone")
    response = api_as(someone).post(f"/api/series/{s.pk}/starter/", {"starter": a.pk})
    assert response.status_code == 403
