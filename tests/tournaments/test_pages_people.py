"""A director's people (docs/director_rounds.md) through the pages, as a plain user who directs the
tournament (not a superuser): the player search, the similar-name warning, removing,
withdrawing and reinstating entries after a confirmation, co-directors, pairs kept apart,
invitations claimed through the mail, password reset through the mail."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.helpers import EN, tournament_data
from tests.tournaments.pages_data import director, round_robin
from tournaments.models import Entry, Player, ProhibitedPair, Series, Tournament
from tournaments.services.exports import crosstable_csv, standings_csv
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


def swiss(by: User, *names: str) -> Tournament:
    t = tournament_create(name="Open", start_date=datetime.date(2026, 6, 1), format="swiss")
    t.directors.add(by)
    for name in names:
        entry_register(tournament=t, player=Player.objects.create(name=name))
    return t


@pytest.fixture
def boss(client: Client) -> User:
    user = director()
    client.force_login(user)
    return user


def test_typing_an_existing_name_without_accents_warns_and_offers_it(
    client: Client, boss: User
) -> None:
    """Finding: typing "Eva Kucerova" when "Eva Kučerová" exists made a second player."""
    eva = Player.objects.create(name="Eva Kučerová")
    t = swiss(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    response = client.post(url, {"new_name": "Eva Kucerova"}, **EN)
    html = response.content.decode()
    assert response.status_code == 400 and "similar name exists" in html
    assert "Eva Kučerová" in html and f'name="player" value="{eva.pk}"' in html
    assert Player.objects.count() == 1 and not t.entries.exists()
    # the existing one is offered: registering her adds no player
    add = reverse("tournaments:entry_add", args=[t.pk])
    assert client.post(add, {"player": eva.pk}).status_code == 302
    assert list(t.entries.values_list("player", flat=True)) == [eva.pk]


def test_a_namesake_is_created_after_the_director_confirms(client: Client, boss: User) -> None:
    Player.objects.create(name="Eva Kučerová")
    t = swiss(boss)
    url = reverse("tournaments:entries", args=[t.pk])
    assert client.post(url, {"new_name": "Eva Kucerova", "confirm_new": "1"}).status_code == 302
    assert Player.objects.filter(name="Eva Kucerova").exists()
    assert t.entries.count() == 1


def test_search_is_accent_and_case_insensitive_json_and_plain(client: Client, boss: User) -> None:
    Player.objects.create(name="Eva Kučerová")
    Player.objects.create(name="Petr Novák")
    t = swiss(boss, "Éva Entered")
    search = reverse("tournaments:player_search", args=[t.pk])
    data = client.get(search, {"q": "KUCER"}).json()
    assert [r["name"] for r in data["results"]] == ["Eva Kučerová"]
    # an entered player is not offered again; every word must match
    assert client.get(search, {"q": "eva"}).json()["results"][0]["name"] == "Eva Kučerová"
    assert len(client.get(search, {"q": "eva"}).json()["results"]) == 1
    assert client.get(search, {"q": "nov petr"}).json()["results"][0]["name"] == "Petr Novák"
    # without JavaScript: the same search as a plain GET form on the players page
    html = client.get(reverse("tournaments:entries", args=[t.pk]), {"q": "kučerova"}).content
    assert "Eva Kučerová" in html.decode()
    # hostile input is just a search that finds nothing
    assert client.get(search, {"q": "\x00" * 500}).json()["results"] == []
    other = User.objects.create_user("other", password="a-long-secret-1")
    client.force_login(other)
    assert client.get(search, {"q": "eva"}).status_code == 403


def test_remove_before_pairing_after_confirmation(client: Client, boss: User) -> None:
    t = swiss(boss, "Anna", "Bára")
    anna = Player.objects.get(name="Anna")
    url = reverse("tournaments:entry_action", args=[t.pk, anna.pk, "remove"])
    page = client.get(url, **EN)
    assert page.status_code == 200 and "Remove Anna from the tournament?" in page.content.decode()
    assert t.entries.count() == 2  # asking changes nothing
    assert client.post(url).status_code == 302
    assert not t.entries.filter(player=anna).exists() and Player.objects.filter(pk=anna.pk)


def test_a_paired_player_cannot_be_removed(client: Client, boss: User) -> None:
    t = round_robin(4, by=boss)
    player = t.entries.first().player
    url = reverse("tournaments:entry_action", args=[t.pk, player.pk, "remove"])
    response = client.post(url, follow=True, **EN)
    assert "withdraw them instead" in response.content.decode()
    assert t.entries.filter(player=player).exists()


def test_withdraw_asks_first_and_undo_reopens_the_forfeited_series(
    client: Client, boss: User
) -> None:
    t = round_robin(4, by=boss)
    s = Series.objects.filter(tournament=t, round__number=2, player2__isnull=False).first()
    assert s is not None and s.player1 is not None
    who = s.player1
    withdraw = reverse("tournaments:entry_action", args=[t.pk, who.pk, "withdraw"])
    page = client.get(withdraw, **EN).content.decode()
    assert f"Withdraw {who.name}?" in page and "forfeited to the opponent" in page
    assert not Entry.objects.get(tournament=t, player=who).withdrawn
    client.post(withdraw)
    s.refresh_from_db()
    assert Entry.objects.get(tournament=t, player=who).withdrawn and s.status == "forfeited"
    entries = client.get(reverse("tournaments:entries", args=[t.pk]), **EN).content.decode()
    assert "3 players" in entries and "Undo the withdrawal" in entries
    undo = reverse("tournaments:entry_action", args=[t.pk, who.pk, "reinstate"])
    assert "Series reopened" in client.get(undo, **EN).content.decode()
    client.post(undo)
    s.refresh_from_db()
    assert not Entry.objects.get(tournament=t, player=who).withdrawn
    assert s.status == "scheduled" and s.winner_id is None and "forfeit" not in s.pairing


def test_withdrawn_duplicate_leaves_standings_crosstable_and_csv(
    client: Client, boss: User
) -> None:
    """Finding: the withdrawn duplicate stayed in the standings, crosstable and CSV. A
    player withdrawn before playing is not counted anywhere; one who played stays,
    marked withdrawn."""
    t = round_robin(4, by=boss)
    duplicate = Player.objects.create(name="Club cup player 1 again")
    # an entry left over from before the rule that a paired round robin takes nobody
    Entry.objects.create(tournament=t, player=duplicate)
    client.post(reverse("tournaments:entry_action", args=[t.pk, duplicate.pk, "withdraw"]))
    client.get(reverse("tournaments:home"))  # shows (and so clears) the message
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert "player 1 again" not in page
    assert "player 1 again" not in standings_csv(t)
    assert "player 1 again" not in crosstable_csv(t)
    played = Player.objects.get(name="Club cup player 2")
    client.post(reverse("tournaments:entry_action", args=[t.pk, played.pk, "withdraw"]))
    assert "Club cup player 2" in standings_csv(t)
    with translation.override("en"):
        crosstable = crosstable_csv(t)
    assert "Club cup player 2 (withdrawn)" in crosstable


def test_co_director_added_by_username_and_removed_after_confirmation(
    client: Client, boss: User
) -> None:
    t = swiss(boss, "Anna")
    helper = User.objects.create_user("helper", password="a-long-secret-1")
    url = reverse("tournaments:people", args=[t.pk])
    assert client.post(url, {"op": "director", "username": "helper"}).status_code == 302
    assert t.directors.filter(pk=helper.pk).exists()
    response = client.post(url, {"op": "director", "username": "nobody"}, **EN)
    assert response.status_code == 400 and "There is no user nobody" in response.content.decode()
    # the co-director directs: the players page opens for them
    other = Client()
    other.force_login(helper)
    assert other.get(reverse("tournaments:entries", args=[t.pk])).status_code == 200
    remove = reverse("tournaments:director_remove", args=[t.pk, "helper"])
    assert "Remove helper as a director?" in client.get(remove, **EN).content.decode()
    client.post(remove)
    assert not t.directors.filter(pk=helper.pk).exists()
    # the last director stays
    client.post(reverse("tournaments:director_remove", args=[t.pk, boss.username]))
    assert t.directors.filter(pk=boss.pk).exists()


def test_pairs_kept_apart_on_the_page_and_in_swiss_pairing(client: Client, boss: User) -> None:
    t = swiss(boss, "Anna", "Bára", "Cyril", "Dana")
    a, b = Player.objects.get(name="Anna"), Player.objects.get(name="Bára")
    url = reverse("tournaments:people", args=[t.pk])
    data = {"op": "pair", "player_a": a.pk, "player_b": b.pk, "reason": "sisters"}
    assert client.post(url, data).status_code == 302
    response = client.post(url, {**data, "player_a": b.pk, "player_b": a.pk}, **EN)
    assert response.status_code == 400 and "kept apart already" in response.content.decode()
    assert ProhibitedPair.objects.filter(tournament=t).count() == 1
    client.post(reverse("tournaments:pair", args=[t.pk, "round"]))
    for s in Series.objects.filter(tournament=t):
        assert {s.player1_id, s.player2_id} != {a.pk, b.pk}
    pair = ProhibitedPair.objects.get(tournament=t)
    client.post(reverse("tournaments:pair_remove", args=[t.pk, pair.pk]))
    assert not ProhibitedPair.objects.filter(tournament=t).exists()


def _link(body: object) -> str:
    found = re.search(r"https?://[^/\s]+(/\S+)", str(body))
    assert found, body
    return found.group(1)


def test_invitation_by_mail_claimed_with_a_new_account(client: Client, boss: User) -> None:
    t = swiss(boss, "Anna")
    anna = Player.objects.get(name="Anna")
    invite = reverse("tournaments:invite", args=[t.pk, anna.pk])
    assert client.get(invite).status_code == 200
    assert client.post(invite, {"email": "anna@example.org"}).status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["anna@example.org"]
    path = _link(mail.outbox[0].body)
    visitor = Client()
    assert "Anna" in visitor.get(path, **EN).content.decode()
    weak = visitor.post(path, {"username": "anna", "password": "123"}, **EN)
    assert weak.status_code == 400 and not User.objects.filter(username="anna").exists()
    visitor.post(path, {"username": "anna", "password": "a-long-secret-2"})
    anna.refresh_from_db()
    assert anna.user is not None and anna.user.username == "anna"
    # used once: the link answers that it is claimed; the director sees who claimed
    assert "claimed" in visitor.get(path, **EN).content.decode()
    entries = client.get(reverse("tournaments:entries", args=[t.pk]), **EN).content.decode()
    assert "✓ anna" in entries


def test_invitation_claimed_by_a_signed_in_user(client: Client, boss: User) -> None:
    t = swiss(boss, "Bára")
    bara = Player.objects.get(name="Bára")
    page = client.get(reverse("tournaments:invite", args=[t.pk, bara.pk])).content.decode()
    path = _link(re.search(r'value="(http[^"]+)"', page).group(1))
    user = User.objects.create_user("bara", password="a-long-secret-1")
    visitor = Client()
    visitor.force_login(user)
    assert visitor.post(path).status_code == 302
    bara.refresh_from_db()
    assert bara.user == user
    # a forged token is a clear 400, not a 500
    assert Client().get(reverse("tournaments:claim", args=["forged:token"])).status_code == 400


def test_a_director_withdraws_a_link_handed_to_the_wrong_person(client: Client, boss: User) -> None:
    """Every link made before the withdrawal is refused (in Czech by default); the page
    then shows a new link, which works."""
    t = swiss(boss, "Cyril")
    cyril = Player.objects.get(name="Cyril")
    invite = reverse("tournaments:invite", args=[t.pk, cyril.pk])
    old = _link(re.search(r'value="(http[^"]+)"', client.get(invite).content.decode()).group(1))
    withdraw = reverse("tournaments:invite_withdraw", args=[t.pk, cyril.pk])
    assert client.get(withdraw).status_code == 405  # a change is a POST
    assert client.post(withdraw).status_code == 302
    refused = Client().get(old)
    assert refused.status_code == 400 and "stáhl" in refused.content.decode()
    page = client.get(invite).content.decode()
    new = _link(re.search(r'value="(http[^"]+)"', page).group(1))
    assert new != old
    user = User.objects.create_user("cyril", password="a-long-secret-1")
    visitor = Client()
    visitor.force_login(user)
    assert visitor.post(old).status_code == 400
    assert visitor.post(new).status_code == 302
    cyril.refresh_from_db()
    assert cyril.user == user
    # claimed: nothing is left to withdraw; another tournament's director may not
    assert "už" in client.post(withdraw, follow=True).content.decode()
    stranger = Client()
    stranger.force_login(User.objects.create_user("x", password="a-long-secret-1"))
    assert stranger.post(withdraw).status_code in (403, 404)


def test_password_reset_mail_is_sent_and_its_link_works(client: Client) -> None:
    User.objects.create_user("eva", email="eva@example.org", password="a-long-secret-1")
    response = client.post(reverse("password_reset"), {"email": "eva@example.org"})
    assert response.status_code == 302 and len(mail.outbox) == 1
    path = _link(mail.outbox[0].body)
    page = client.get(path, follow=True)
    assert page.status_code == 200
    set_url = page.redirect_chain[-1][0] if page.redirect_chain else path
    new = {"new_password1": "another-long-secret-9", "new_password2": "another-long-secret-9"}
    assert client.post(set_url, new).status_code == 302
    assert User.objects.get(username="eva").check_password("another-long-secret-9")


def test_new_tournament_form_marks_each_rule_with_the_games_that_have_it(client: Client) -> None:
    """The form offers only what the chosen game allows: the server renders which games
    have each setting (from the rules source), a static script hides the others, and
    the server resets what the chosen game lacks (RULES S7: the cube is short only)."""
    from django.contrib.auth.models import Permission

    user = director()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    html = client.get(reverse("tournaments:tournament_new")).content.decode()
    assert re.search(
        r'data-games="short" data-formats="">\s*<div class="field[^"]*">\s*'
        r'<label for="id_cube"',
        html,
    )
    assert re.search(
        r'data-games="long" data-formats="">\s*<div class="field[^"]*">\s*'
        r'<label for="id_last_roll"',
        html,
    )
    assert 'data-formats="swiss"' in html and "js/tournament_form.js" in html
    data = tournament_data(name="Short cup", variant="short", cube="on", opening_roll="lot")
    assert client.post(reverse("tournaments:tournament_new"), data).status_code == 302
    short = Tournament.objects.get(name="Short cup")
    assert short.cube and short.directors.filter(pk=user.pk).exists()
    long_data = tournament_data(name="Long cup", variant="long", cube="on")
    assert client.post(reverse("tournaments:tournament_new"), long_data).status_code == 302
    assert not Tournament.objects.get(name="Long cup").cube
