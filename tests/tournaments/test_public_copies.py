"""Whole responses for anonymous visitors and conditional GET (tournaments/caching/pages.py):
one query and one cache read when warm, 304 for an unchanged page, gzip from cached bytes,
no CSRF token and no cookie on a public page (the language switch needs none), and
nothing shared with signed-in users."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.core.cache import cache, caches
from django.test import Client

from tests.tournaments.pages_data import director, round_robin
from tournaments.caching.pages import PLACEHOLDER
from tournaments.models import Game, Player, Series, Tournament
from tournaments.services.results import game_correct

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()
    caches["local"].clear()


def _paths(t: Tournament) -> list[str]:
    series = Series.objects.filter(tournament=t, player2__isnull=False).order_by("pk").first()
    game = Game.objects.filter(series__tournament=t).exclude(record="").order_by("pk").first()
    assert series is not None and game is not None
    return [
        "/",
        f"/tournaments/{t.pk}/",
        f"/series/{series.pk}/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/?turn=3",
        f"/players/{series.player1_id}/",
        "/api/tournaments/",
        f"/api/tournaments/{t.pk}/standings/",
    ]


def test_a_warm_public_page_costs_one_query(
    django_assert_max_num_queries: Any,
) -> None:
    t = round_robin(4)
    client = Client()
    for path in _paths(t):
        first = client.get(path)
        assert first.status_code == 200, path
        assert first["ETag"], path
        limit = 2 if path.startswith("/players/") else 1  # the player's version: 2 reads
        with django_assert_max_num_queries(limit):
            again = client.get(path)
        assert again.status_code == 200
        assert again.content == first.content
        assert PLACEHOLDER not in again.content.decode()
        assert not TOKEN.search(again.content.decode()) and not again.cookies, path


def test_an_unchanged_page_answers_304_and_a_changed_one_200() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    client = Client()
    for path in _paths(t):
        etag = client.get(path)["ETag"]
        assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304, path
    tags = {path: client.get(path)["ETag"] for path in _paths(t)}
    game = Game.objects.filter(series__tournament=t, record="").select_related("white", "black")[0]
    other = game.black if game.winner_id == game.white_id else game.white
    game_correct(game=game, by=boss, reason="wrong winner", winner=other)
    for path, etag in tags.items():
        response = client.get(path, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 200, path
        assert response["ETag"] != etag


def test_gzip_is_served_from_the_cached_parts_and_decompresses_to_the_page() -> None:
    t = round_robin(6)
    client = Client()
    path = f"/tournaments/{t.pk}/"
    plain = client.get(path).content.decode()
    for _ in range(2):  # cold, then from the cache
        response = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate")
        assert response["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.content).decode() == plain


def test_a_public_page_is_the_same_bytes_for_every_visitor_with_no_token_or_cookie() -> None:
    """The header's language switch needs no CSRF token (views/language.py): a stored page
    is served as it is, with no token made and no Set-Cookie, under one ETag."""
    t = round_robin(4)
    path = f"/tournaments/{t.pk}/"
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    pages = [first.get(path), second.get(path), first.get(path)]
    assert pages[0].content == pages[1].content == pages[2].content
    assert len({p["ETag"] for p in pages}) == 1
    for page in pages:
        assert not page.cookies and "csrftoken" not in page.content.decode()
        assert 'action="/i18n/setlang/"' in page.content.decode()


def test_the_language_switch_works_without_a_token_from_this_sites_pages() -> None:
    t = round_robin(4)
    path = f"/tournaments/{t.pk}/"
    visitor = Client(enforce_csrf_checks=True)
    page = visitor.get(path)
    assert page["Content-Language"] == "cs"  # the site's default
    form = {"language": "en", "next": path}
    for headers in ({}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"},
                    {"Origin": "http://testserver"},
                    {"Referer": f"http://testserver{path}"}):  # fmt: skip
        visitor.cookies.clear()
        switched = visitor.post("/i18n/setlang/", form, headers=headers)
        assert switched.status_code == 302 and switched["Location"] == path, headers
        assert switched.cookies["django_language"].value == "en"
        english = visitor.get(path)
        assert english["Content-Language"] == "en"
        assert english["ETag"] != page["ETag"]  # the language is part of the key


def test_the_language_switch_is_refused_to_other_sites() -> None:
    """No token, but another site's page cannot switch a visitor's language (a forged
    cross-site POST): the browser says where the form was."""
    visitor = Client(enforce_csrf_checks=True)
    form = {"language": "en", "next": "/"}
    for headers in ({"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"},
                    {"Sec-Fetch-Site": "same-site"},
                    {"Origin": "https://evil.example"}, {"Origin": "null"},
                    {"Origin": "https://testserver"},
                    {"Referer": "https://evil.example/page"}):  # fmt: skip
        refused = visitor.post("/i18n/setlang/", form, headers=headers)
        assert refused.status_code == 403, headers
        assert "django_language" not in refused.cookies
    assert visitor.get("/i18n/setlang/?language=cs&next=/").status_code == 405
    assert "django_language" not in visitor.cookies


def test_a_page_that_renders_a_token_gets_each_visitors_own_from_the_stored_parts() -> None:
    """The safety net: were a public page ever to render a CSRF token, it is stored split
    at a placeholder and each visitor gets their own (plain and gzip), never a shared one."""
    from django.http import HttpResponse
    from django.middleware.csrf import _unmask_cipher_token  # type: ignore[attr-defined]
    from django.test import RequestFactory

    from tournaments.caching.pages import _serve, _store

    html = f"<p>before</p><input value='{PLACEHOLDER}'><p>after</p>" * 20
    stored = _store(HttpResponse(html))
    assert stored.has_token and stored.gzipped is None
    for zipped in (False, True):
        request = RequestFactory().get("/")
        response = _serve(request, stored, zipped=zipped)
        body = (gzip.decompress(response.content) if zipped else response.content).decode()
        tokens = set(re.findall(r"value='([^']*)'", body))
        assert len(tokens) == 1 and PLACEHOLDER not in body
        assert _unmask_cipher_token(tokens.pop()) == request.META["CSRF_COOKIE"]
        assert re.sub(r"value='[^']*'", "", body) == html.replace(f"value='{PLACEHOLDER}'", "")


def test_signed_in_users_get_their_own_page_and_no_etag() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    path = f"/tournaments/{t.pk}/"
    Client().get(path)
    client = Client()
    client.force_login(boss)
    page = client.get(path)
    assert "ETag" not in page
    assert 'action="/accounts/logout/"' in page.content.decode()
    assert f"/tournaments/{t.pk}/edit/" in page.content.decode()


def test_an_api_client_with_credentials_is_not_served_the_anonymous_copy() -> None:
    t = round_robin(4)
    path = f"/api/tournaments/{t.pk}/standings/"
    Client().get(path)
    response = Client().get(path, HTTP_AUTHORIZATION="Token not-a-real-one")
    assert response.status_code in (401, 403)
    assert "ETag" not in response


def test_other_query_parameters_are_rendered_as_usual_and_not_kept() -> None:
    t = round_robin(4)
    game = Game.objects.filter(series__tournament=t).exclude(record="").first()
    assert game is not None
    client = Client()
    hostile = (f"/tournaments/{t.pk}/?x=1", f"/games/{game.pk}/?turn=1&turn=2",
               f"/games/{game.pk}/?turn=99999999999", "/api/tournaments/?format=api")  # fmt: skip
    for path in hostile:
        response = client.get(path)
        assert response.status_code == 200, path
        assert "ETag" not in response, path


def test_an_unpublished_tournament_stays_404_for_visitors_and_is_never_kept() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    Tournament.objects.filter(pk=t.pk).update(published=False)
    client = Client()
    missing = client.get(f"/tournaments/{t.pk}/")
    assert missing.status_code == 404 and PLACEHOLDER not in missing.content.decode()
    assert client.get(f"/api/tournaments/{t.pk}/standings/").status_code == 404
    assert client.get("/api/tournaments/abc/standings/").status_code == 404
    assert f"/tournaments/{t.pk}/" not in client.get("/").content.decode()


def test_a_visitor_with_a_message_waiting_gets_a_page_with_it() -> None:
    t = round_robin(4)
    path = f"/tournaments/{t.pk}/"
    Client().get(path)
    client = Client()
    # a failed sign-in leaves no message; a language switch does not either: set one
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.http import HttpRequest, HttpResponse

    storage = CookieStorage(HttpRequest())
    storage.add(20, "Welcome back")
    response = HttpResponse()
    storage.update(response)
    client.cookies[storage.cookie_name] = response.cookies[storage.cookie_name].value
    page = client.get(path)
    assert "Welcome back" in page.content.decode()
    assert "ETag" not in page


def test_a_player_page_changes_when_an_opponent_is_renamed() -> None:
    t = round_robin(4)
    series = Series.objects.filter(tournament=t, player2__isnull=False).order_by("pk")[0]
    assert series.player1_id is not None and series.player2_id is not None
    client = Client()
    path = f"/players/{series.player1_id}/"
    client.get(path)
    Player.objects.get(pk=series.player2_id).save()  # through the model: as services do
    from tournaments.services.people import player_update

    player_update(player=Player.objects.get(pk=series.player2_id), name="Renamed Opponent")
    assert "Renamed Opponent" in client.get(path).content.decode()


def test_a_players_cached_figures_count_a_record_entered_in_another_tournament() -> None:
    """The figures are cached per player by the versions of the tournaments they come
    from: a record entered in any of them shows at once, for signed-in users too."""
    import datetime

    from tests.tournaments.pages_data import a_record
    from tournaments.services.pairings import round_generate
    from tournaments.services.results import game_enter_record
    from tournaments.services.series import series_next_white
    from tournaments.services.setup import entry_register, tournament_create
    from tournaments.views.fragments import player_figures

    boss = director()
    first = round_robin(4, by=boss, name="First cup")
    player, other = Player.objects.filter(entries__tournament=first).order_by("pk")[:2]
    before = player_figures(player=player, user=boss).games
    assert player_figures(player=player, user=boss).games == before  # now from the cache
    second = tournament_create(name="Second cup", start_date=datetime.date(2026, 6, 1),
                               format="round_robin", series_length=1)  # fmt: skip
    for p in (player, other):
        entry_register(tournament=second, player=p)
    series = round_generate(tournament=second).series.select_related("player1", "player2")[0]
    assert series.player1 is not None and series.player2 is not None
    white = series_next_white(series, []) or series.player1
    black = series.player2 if white == series.player1 else series.player1
    game_enter_record(series=series, record=a_record(white.name, black.name, seed=3))
    assert player_figures(player=player, user=boss).games == before + 1
