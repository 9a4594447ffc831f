"""Directors' pages and result entry: permissions, forms that answer bad input next to
the field and save nothing, players' submissions and their confirmation."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import EN, tournament_data
from tests.tournaments.pages_data import a_record, director, round_robin
from tournaments.models import Game, Player, Series, Submission, Tournament
from tournaments.services.series import series_next_white

pytestmark = pytest.mark.django_db


def open_series(t: Tournament) -> Series:
    s = t.series.filter(games__isnull=True, player2__isnull=False).select_related(
        "player1", "player2", "tournament"
    ).first()  # fmt: skip
    assert s is not None
    return s


def test_creating_a_tournament_needs_the_permission(client: Client) -> None:
    user = director()
    client.force_login(user)
    assert client.get(reverse("tournaments:tournament_new")).status_code == 403
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert client.get(reverse("tournaments:tournament_new")).status_code == 200


def test_director_creates_a_tournament_and_directs_it(client: Client) -> None:
    user = User.objects.create_superuser("boss", password="a-long-secret-1")
    client.force_login(user)
    response = client.post(reverse("tournaments:tournament_new"), tournament_data())
    t = Tournament.objects.get(name="Spring cup")
    assert response.status_code == 302
    assert t.tie_breaks == ["buchholz", "series_won"]


def test_bad_settings_are_answered_next_to_the_field(client: Client) -> None:
    client.force_login(User.objects.create_superuser("boss", password="a-long-secret-1"))
    data = tournament_data(series_length="0", tie_break_2="buchholz", name="Bad")
    response = client.post(reverse("tournaments:tournament_new"), data, **EN)
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_tie_break_1_error"' in html and "listed twice" in html
    assert not Tournament.objects.filter(name="Bad").exists()


def test_only_directors_reach_the_director_pages(client: Client) -> None:
    t = round_robin(4)
    someone = director("someone")
    for name in ("tournament_edit", "entries"):
        url = reverse(f"tournaments:{name}", args=[t.pk])
        assert client.get(url).status_code == 302  # sign in first
        client.force_login(someone)
        assert client.get(url).status_code == 403
        client.logout()


def test_register_pair_and_edit(client: Client) -> None:
    boss = director()
    t = round_robin(4, by=boss, name="Cup")
    client.force_login(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    # a round robin already paired takes nobody (entries_open_check): refused, said why
    response = client.post(url, {"new_name": "Newcomer"}, **EN)
    assert response.status_code == 400 and "paired already" in response.content.decode()
    assert not t.entries.filter(player__name="Newcomer").exists()
    response = client.post(url, {}, **EN)
    assert response.status_code == 400 and "Choose a player" in response.content.decode()
    # round 2 is still open: pairing round 3 is refused with the service's message
    response = client.post(reverse("tournaments:pair", args=[t.pk, "round"]), follow=True, **EN)
    assert "not finished yet" in response.content.decode()
    edit = reverse("tournaments:tournament_edit", args=[t.pk])
    assert client.get(edit).status_code == 200
    data = tournament_data(name="Cup renamed", series_length="1", format="swiss")
    response = client.post(edit, data, **EN)
    assert response.status_code == 400 and "cannot change once series are paired" in (
        response.content.decode()
    )
    response = client.post(edit, tournament_data(name="Cup renamed", series_length="1"))
    assert response.status_code == 302
    assert Tournament.objects.get(pk=t.pk).name == "Cup renamed"


def test_director_enters_a_quick_result_and_a_record(client: Client) -> None:
    boss = director()
    t = round_robin(4, by=boss)
    s = open_series(t)
    client.force_login(boss)
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert "Enter game 1" in page
    white = series_next_white(s, []) or s.player1
    assert white is not None
    response = client.post(
        reverse("tournaments:enter_quick", args=[s.pk]),
        {"number": 1, "white": white.pk, "winner": white.pk, "kind": "oin", "ended": "played",
         "cube": 1},
    )  # fmt: skip
    assert response.status_code == 302
    assert Game.objects.filter(series=s).count() == 1
    s2 = open_series(t)
    w2 = series_next_white(s2, []) or s2.player1
    assert w2 is not None and s2.player1 and s2.player2
    black = s2.player2 if w2 == s2.player1 else s2.player1
    record = a_record(w2.name, black.name, seed=7)
    response = client.post(
        reverse("tournaments:enter_record", args=[s2.pk]), {"number": 1, "record": record}
    )
    assert response.status_code == 302
    assert Game.objects.get(series=s2).verified


def test_a_bad_record_is_answered_with_its_line_and_saves_nothing(client: Client) -> None:
    boss = director()
    t = round_robin(4, by=boss)
    s = open_series(t)
    client.force_login(boss)
    bad = '[Variant "long"]\n[White "A"]\n[Black "B"]\n\n1. 65: 24/13 zz'
    response = client.post(reverse("tournaments:enter_record", args=[s.pk]),
                           {"number": 1, "record": bad}, **EN)  # fmt: skip
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_record_error"' in html and "line 5" in html
    assert not Game.objects.filter(series=s).exists()


def test_wrong_colour_is_answered_next_to_the_white_field(client: Client) -> None:
    boss = director()
    t = round_robin(4, by=boss)
    s = Series.objects.filter(tournament=t, games__isnull=False, status="finished").first()
    assert s is not None
    client.force_login(boss)
    s = open_series(t)
    white = series_next_white(s, []) or s.player1
    response = client.post(
        reverse("tournaments:enter_quick", args=[s.pk]),
        {"number": 1, "white": white.pk if white else "", "winner": "", "kind": "draw",
         "ended": "played", "cube": 1},
        **EN,
    )  # fmt: skip
    assert response.status_code == 400 and 'id="id_kind_error"' in response.content.decode()


def test_correction_with_a_reason(client: Client) -> None:
    boss = director()
    t = round_robin(4, by=boss)
    game = Game.objects.filter(series__tournament=t, record="").first()
    assert game is not None
    url = reverse("tournaments:correct", args=[game.pk])
    client.force_login(director("other"))
    assert client.get(url).status_code == 403
    client.force_login(boss)
    base = {"winner": game.black_id, "kind": "oin", "ended": "played", "cube": 1,
            "version": game.version}  # fmt: skip
    response = client.post(url, base | {"reason": ""}, **EN)
    assert response.status_code == 400 and 'id="id_reason_error"' in response.content.decode()
    # round 2 is paired: the page warns and asks for a confirmation (docs/director_rounds.md)
    response = client.post(url, base | {"reason": "wrong winner on the sheet", "confirmed": "1"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.winner_id == game.black_id and game.corrections.count() == 1


def test_player_submits_and_the_opponent_confirms(client: Client) -> None:
    t = round_robin(4)
    s = open_series(t)
    assert s.player1 is not None and s.player2 is not None
    one = User.objects.create_user("one", password="a-long-secret-1")
    two = User.objects.create_user("two", password="a-long-secret-1")
    Player.objects.filter(pk=s.player1.pk).update(user=one)
    Player.objects.filter(pk=s.player2.pk).update(user=two)
    white = series_next_white(s, []) or s.player1
    client.force_login(one)
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert "Submit game 1" in page
    response = client.post(
        reverse("tournaments:enter_quick", args=[s.pk]),
        {"number": 1, "white": white.pk, "winner": white.pk, "kind": "oin", "ended": "played",
         "cube": 1},
    )  # fmt: skip
    assert response.status_code == 302 and not Game.objects.filter(series=s).exists()
    assert (
        "Nothing is waiting"
        in client.get(reverse("tournaments:confirmations"), **EN).content.decode()
    )
    client.force_login(two)
    page = client.get(reverse("tournaments:confirmations"), **EN).content.decode()
    sub = Submission.objects.get(series=s)
    assert str(s) in page
    client.post(reverse("tournaments:decide", args=[sub.pk, "confirm"]))
    assert Game.objects.filter(series=s).count() == 1


def test_player_of_another_series_cannot_enter(client: Client) -> None:
    t = round_robin(4)
    s = open_series(t)
    client.force_login(director("stranger"))
    response = client.post(reverse("tournaments:enter_quick", args=[s.pk]), {"number": 1})
    assert response.status_code == 403


def test_language_switch_to_english(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
    assert "<h1>Long nardy tournaments</h1>" in response.content.decode()


def test_the_director_swaps_two_players_before_the_round_starts(client: Client) -> None:
    """A director may swap players between two series of a round before they
    start; a started series cannot change."""
    from tournaments.services.pairings import round_generate

    boss = director()
    t = Tournament.objects.create(name="Swap", start_date="2026-11-29", format="round_robin")
    t.directors.add(boss)
    players = [Player.objects.create(name=n) for n in ("Ada", "Bob", "Cyril", "Dana")]
    for p in players:
        t.entries.create(player=p)
    rnd = round_generate(tournament=t)
    first, second = rnd.series.order_by("table")
    a, b = first.player1, second.player1
    assert a and b
    client.force_login(boss)
    page = client.get(reverse("tournaments:entries", args=[t.pk]), **EN).content.decode()
    assert "Swap before the round starts" in page
    url = reverse("tournaments:pair", args=[t.pk, "swap"])
    assert client.post(url, {"player_a": a.pk, "player_b": b.pk}).status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.player1 == b and second.player1 == a
    response = client.post(url, {"player_a": a.pk, "player_b": a.pk}, follow=True, **EN)
    assert "swap players between two series" in response.content.decode()


def test_a_rejection_with_a_note_too_long_is_refused_and_keeps_the_result_pending(
    client: Client,
) -> None:
    t = round_robin(4)
    s = open_series(t)
    one, two = (User.objects.create_user(n, password="a-long-secret-1") for n in ("one", "two"))
    Player.objects.filter(pk=s.player1_id).update(user=one)
    Player.objects.filter(pk=s.player2_id).update(user=two)
    client.force_login(one)
    white = series_next_white(s, []) or s.player1
    client.post(
        reverse("tournaments:enter_quick", args=[s.pk]),
        {"number": 1, "white": white.pk, "winner": white.pk, "kind": "oin", "ended": "played",
         "cube": 1},
    )  # fmt: skip
    sub = Submission.objects.get(series=s)
    client.force_login(two)
    url = reverse("tournaments:decide", args=[sub.pk, "reject"])

    response = client.post(url, {"note": "x" * 501}, follow=True, **EN)

    assert "The result is not rejected: Ensure this value has at most 500" in (
        response.content.decode()
    )
    sub.refresh_from_db()
    assert sub.status == "pending"
    client.post(url, {"note": "I won"})
    sub.refresh_from_db()
    assert (sub.status, sub.note) == ("rejected", "I won")
