"""Cached pages are never stale (tournaments/caching/,
docs/performance.md).

Every page and API read here is first fetched through app server A, then a result is
entered, corrected or confirmed through app server B, then read again through A: what A
shows must be exactly what a fresh render shows. The two servers share the cache at
``CACHE_URL`` (Redis; one shared local-memory cache when it is unset) through their own
connections, and each keeps its own local copies of pages, as two processes do. The
database is really committed (``transaction=True``): the versions kept in the shared
cache are stored, and renewed on commit, as in production."""

from __future__ import annotations

import datetime
import io
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache, caches
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from tests.tournaments.helpers import ahead_of_the_clock
from tests.tournaments.pages_data import director, round_robin
from tournaments.caching.generations import read_through, tournament_gen
from tournaments.caching.versions import tournament_version
from tournaments.models import Club, Game, Player, Series, Tournament
from tournaments.services.directing import tournament_update
from tournaments.services.people import player_update
from tournaments.services.results import game_correct
from tournaments.services.series import series_next_white
from tournaments.services.submissions import submission_confirm, submission_create

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


LOCMEM = "django.core.cache.backends.locmem.LocMemCache"


@contextmanager
def app_server(name: str) -> Iterator[None]:
    """Requests as one app server: its own connection to the shared cache (the Redis at
    CACHE_URL, as configured) and its own local copies of public pages."""
    shared = dict(settings.CACHES["default"])
    if shared["BACKEND"] == LOCMEM:
        shared["LOCATION"] = "shared-by-the-app-servers"
    with override_settings(
        CACHES={"default": shared, "local": {"BACKEND": LOCMEM, "LOCATION": f"{name}-local"}}
    ):
        yield


@pytest.fixture(autouse=True)
def _empty_servers() -> None:
    """Each app server's copies start empty (local memory outlives a test)."""
    for name in ("A", "B", "fresh"):
        with app_server(name):
            cache.clear()
            caches["local"].clear()


def _pages(t: Tournament) -> list[str]:
    series = Series.objects.filter(tournament=t, player2__isnull=False).order_by("pk").first()
    assert series is not None and series.player1_id is not None
    games = Game.objects.filter(series__tournament=t).order_by("pk")
    recorded, quick = games.exclude(record="").first(), games.filter(record="").first()
    assert recorded is not None and quick is not None
    return [
        f"/tournaments/{t.pk}/",
        f"/api/tournaments/{t.pk}/standings/",
        f"/series/{series.pk}/",
        f"/players/{series.player1_id}/",
        f"/games/{recorded.pk}/",
        f"/games/{recorded.pk}/?turn=2",
        f"/games/{quick.pk}/",
        "/",
        "/api/tournaments/",
        f"/api/tournaments/{t.pk}/",
        f"/api/series/?tournament={t.pk}",
        f"/api/series/{series.pk}/",
        f"/api/games/?tournament={t.pk}&ordering=-id",
        f"/api/games/{recorded.pk}/",
        f"/api/rounds/?tournament={t.pk}",
        f"/api/submissions/?tournament={t.pk}",
        "/api/players/",
        f"/api/players/{series.player1_id}/",
        f"/api/players/{series.player1_id}/ratings/",
        "/api/clubs/",
    ]


def _read(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return CSRF.sub("", response.content.decode())


def _check_fresh_after(t: Tournament, write: Callable[[], None]) -> None:
    """Read every page through A (twice: the second from the caches, with no query),
    write through B, read through A again: the same as a fresh render, and different
    from before."""
    client = Client()
    paths = _pages(t)
    with app_server("A"):
        before = {p: _read(client, p) for p in paths}
        assert {p: _read(client, p) for p in paths} == before  # now served from the caches
    with app_server("B"):
        write()
    with app_server("A"):
        after = {p: _read(client, p) for p in paths}
    with app_server("fresh"):
        cache.clear()
        caches["local"].clear()
        fresh = {p: _read(client, p) for p in paths}
    assert after == fresh
    changed = [p for p in paths if after[p] != before[p]]
    assert paths[0] in changed and paths[1] in changed, changed
    assert f"/api/series/?tournament={t.pk}" in changed


def _open_series(t: Tournament) -> Series:
    return (
        Series.objects.filter(tournament=t, player2__isnull=False, games__isnull=True)
        .select_related("player1", "player2", "tournament")
        .order_by("pk")
        .first()
    )


def test_a_result_entered_on_the_page_shows_at_once_on_every_cached_page() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    series = _open_series(t)

    def enter() -> None:
        client = Client()
        client.force_login(boss)
        white = series_next_white(series, []) or series.player1
        assert white is not None
        data = {"white": white.pk, "winner": white.pk, "kind": "mars", "ended": "played",
                "cube": 1, "number": 1}  # fmt: skip
        assert client.post(f"/series/{series.pk}/quick/", data).status_code == 302

    _check_fresh_after(t, enter)


def test_a_correction_shows_at_once_on_every_cached_page() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    game = Game.objects.filter(series__tournament=t, record="").select_related("white", "black")[0]

    def correct() -> None:
        other = game.black if game.winner_id == game.white_id else game.white
        game_correct(game=game, by=boss, reason="wrong winner noted", winner=other)

    _check_fresh_after(t, correct)


def test_a_confirmed_submission_shows_at_once_on_every_cached_page() -> None:
    boss = director()
    t = round_robin(4, by=boss)
    series = _open_series(t)
    assert series.player1 is not None and series.player2 is not None
    one = User.objects.create_user(username="one", password="a-long-secret-1")
    two = User.objects.create_user(username="two", password="a-long-secret-1")
    Player.objects.filter(pk=series.player1.pk).update(user=one)
    Player.objects.filter(pk=series.player2.pk).update(user=two)
    series.refresh_from_db()
    white = series_next_white(series, []) or series.player1
    assert white is not None
    submission = submission_create(
        series=series, by=one, number=1, white=white, winner=series.player1, kind="oin"
    )

    def confirm() -> None:
        submission_confirm(submission=submission, by=two)

    _check_fresh_after(t, confirm)


def test_a_player_renamed_shows_at_once_on_the_cached_tournament_page() -> None:
    t = round_robin(4)
    player = Player.objects.filter(entries__tournament=t).order_by("pk")[0]
    old = player.name
    client = Client()
    with app_server("A"):
        assert f">{old}<" in _read(client, f"/tournaments/{t.pk}/")
    with app_server("B"):
        player_update(player=player, name="Renamed Player")
    with app_server("A"):
        page = _read(client, f"/tournaments/{t.pk}/")
    assert ">Renamed Player<" in page and f">{old}<" not in page


def test_the_cached_tournament_page_keeps_the_directors_links_out_of_the_public_copy() -> None:
    """The shared body is cached; the director's toolbar and the header's login are not."""
    boss = director()
    t = round_robin(4, by=boss)
    directing, public = Client(), Client()
    directing.force_login(boss)
    edit = f"/tournaments/{t.pk}/edit/"
    assert edit in _read(directing, f"/tournaments/{t.pk}/")
    page = _read(public, f"/tournaments/{t.pk}/")
    assert edit not in page and "director" not in page


def test_a_warm_anonymous_request_makes_no_query(
    django_assert_num_queries: Callable[..., Any],
) -> None:
    """Every public page and API read, warm: its version and the page from the caches."""
    t = round_robin(4)
    client = Client()
    for path in _pages(t):
        _read(client, path)
        with django_assert_num_queries(0):
            assert client.get(path).status_code == 200, path
    with app_server("other"):  # another app server: its own copies, the shared versions
        for path in _pages(t):
            _read(client, path)
            with django_assert_num_queries(0):
                assert client.get(path).status_code == 200, path


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="two connections at once: PostgreSQL only"
)
def test_a_version_read_before_a_write_commits_is_never_served_after_it() -> None:
    """The race a read-through cache must survive. B (another thread: its own database
    and cache connections) writes in a transaction, so the generations are renewed once
    already; A then fetches the tokens and reads the version from the database (the old
    one: B has not committed); B commits (renewing again on commit); A stores what it
    read. The next reader, through any connection, must not get it."""
    t = round_robin(4)
    old = Tournament.objects.get(pk=t.pk).cache_version
    written, read, committed = threading.Event(), threading.Event(), threading.Event()

    def server_b() -> None:
        try:
            with transaction.atomic():
                tournament_update(tournament=t, name="Renamed cup")
                written.set()
                read.wait(30)
            committed.set()
        finally:
            connection.close()

    def read_while_b_writes() -> object:
        row = Tournament.objects.values_list("pk", "published", "cache_version").get(pk=t.pk)
        read.set()
        committed.wait(30)
        return row

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    gen = tournament_gen(t.pk)
    with app_server("A"):
        b = threading.Thread(target=server_b)
        b.start()
        assert written.wait(30)
        _, seen = read_through(gen, [gen], read_while_b_writes)
        b.join(30)
        assert committed.is_set() and seen == (t.pk, True, old)  # stored, but stale now
        now = Tournament.objects.get(pk=t.pk).cache_version
        assert now > old
        assert tournament_version(request, t.pk) == now
    with app_server("C"):
        assert tournament_version(request, t.pk) == now


def test_a_tournament_unpublished_through_another_server_is_gone_at_once() -> None:
    """Visibility follows the shared versions: a visitor's warm copy is not served once
    the tournament is unpublished; its director still sees it, and so does the API."""
    boss = director()
    t = round_robin(4, by=boss)
    paths = [f"/tournaments/{t.pk}/", f"/api/tournaments/{t.pk}/standings/", "/api/series/"]
    visitor = Client()
    with app_server("A"):
        for path in paths:
            _read(visitor, path)
            _read(visitor, path)
        assert t.name in _read(visitor, "/")
    with app_server("B"):
        tournament_update(tournament=t, published=False)
    with app_server("A"):
        assert visitor.get(paths[0]).status_code == 404
        assert visitor.get(paths[1]).status_code == 404
        assert visitor.get("/api/series/").json()["count"] == 0
        assert t.name not in _read(visitor, "/")
        directing = Client()
        directing.force_login(boss)
        assert t.name in _read(directing, paths[0])
    with app_server("B"):
        tournament_update(tournament=t, published=True)
    with app_server("A"):
        assert t.name in _read(visitor, paths[0])


def test_a_player_with_no_tournament_renamed_shows_at_once_in_the_api() -> None:
    """Players and clubs have no version in the database: their writes renew the shared
    generation the API's lists are keyed by."""
    loner = Player.objects.create(name="Lonely Player")
    client = Client()
    with app_server("A"):
        assert "Lonely Player" in _read(client, "/api/players/")
        assert "Lonely Player" in _read(client, f"/players/{loner.pk}/")
    with app_server("B"):
        player_update(player=loner, name="Found Player")
    with app_server("A"):
        assert "Found Player" in _read(client, "/api/players/")
        assert "Found Player" in _read(client, f"/api/players/{loner.pk}/")
        assert "Found Player" in _read(client, f"/players/{loner.pk}/")


def _restore(t: Tournament, backup: dict[str, Any], player: Player, name: str) -> None:
    """A database restore as the app sees it: rows as they were at the backup, written
    without the app (no signal, no generation renewed), the version taken back."""
    Tournament.objects.filter(pk=t.pk).update(**backup)
    Player.objects.filter(pk=player.pk).update(name=name)


def _same_as_fresh(client: Client, paths: list[str]) -> dict[str, str]:
    with app_server("A"):
        after = {p: _read(client, p) for p in paths}
    with app_server("fresh"):
        cache.clear()
        caches["local"].clear()
        fresh = {p: _read(client, p) for p in paths}
    assert [p for p in paths if after[p] != fresh[p]] == []
    return after


def test_a_write_after_a_database_restore_never_shows_a_page_cached_before_it() -> None:
    """The backup is taken; writes follow and their pages are cached (Redis at CACHE_URL);
    the backup is restored, which takes the version back; a write then gives the version
    a number: never one whose copies show the state from before the restore."""
    t = round_robin(4)
    player = Player.objects.filter(entries__tournament=t).order_by("pk").first()
    assert player is not None
    backup = {"name": t.name, "cache_version": Tournament.objects.get(pk=t.pk).cache_version}
    client = Client()
    paths = _pages(t)
    with app_server("A"):
        for p in paths:
            _read(client, p)
    with app_server("B"):  # one write: the next version is the one given after the restore
        tournament_update(tournament=t, name="Renamed after the backup")
    with app_server("A"):
        assert "Renamed after the backup" in _read(client, paths[0])
        for p in paths:
            _read(client, p)  # every page cached as it is before the restore
    _restore(t, backup, player, player.name)
    with app_server("B"):
        tournament_update(tournament=Tournament.objects.get(pk=t.pk), venue="Sokolovna")
    after = _same_as_fresh(client, paths)
    assert "Renamed after the backup" not in after[paths[0]]


def test_cache_renew_after_a_restore_leaves_no_page_cached_before_it() -> None:
    """Restored and not written to yet: ``manage.py cache_renew`` (the restore procedure,
    docs/deploy.md) renews every version and generation, the lists with no version in
    the database included (players)."""
    t = round_robin(4)
    player = Player.objects.filter(entries__tournament=t).order_by("pk").first()
    assert player is not None
    backup = {"name": t.name, "cache_version": Tournament.objects.get(pk=t.pk).cache_version}
    client = Client()
    paths = _pages(t)
    with app_server("B"):
        tournament_update(tournament=t, name="Renamed after the backup")
        player_update(player=player, name="Renamed Player")
    with app_server("A"):
        for p in paths:
            _read(client, p)
        assert "Renamed Player" in _read(client, "/api/players/")
    _restore(t, backup, player, player.name)
    with app_server("B"), translation.override("en"):  # commands speak Czech by default
        out = io.StringIO()
        call_command("cache_renew", stdout=out)
        assert out.getvalue() == f"cached pages renewed: {Tournament.objects.count()} tournament\n"
    after = _same_as_fresh(client, paths)
    assert "Renamed Player" not in after["/api/players/"]


# --- writes outside the results: names shown on cached pages (docs/performance.md) ---


def _admin_post(client: Client, url: str, **changes: object) -> None:
    """Save the admin's change form at ``url`` as a person would: every field as the
    form shows it, with ``changes``."""
    form = client.get(url).context["adminform"].form
    data: dict[str, object] = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = changes.get(name, form[name].value())
        if isinstance(value, datetime.datetime):
            data[f"{name}_0"], data[f"{name}_1"] = value.date().isoformat(), value.time()
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list | tuple):
            data[name] = [str(v) for v in value]
        else:
            data[name] = "" if value is None else value
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors


def _admin() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="a-long-secret-1"))
    return client


def _warm(visitor: Client, paths: list[str], shown: str) -> None:
    """Each of ``paths`` read on server A, showing ``shown``, and read again: stored, then
    served from the cache."""
    with app_server("A"):
        for path in paths:
            assert shown in _read(visitor, path), path
            _read(visitor, path)


def _corrected(t: Tournament, by: User) -> tuple[Game, list[str]]:
    """A game of ``t`` corrected by ``by``, and the cached reads that show who did it."""
    game = Game.objects.filter(series__tournament=t, record="").select_related("white", "black")[0]
    other = game.black if game.winner_id == game.white_id else game.white
    game_correct(game=game, by=by, reason="wrong winner noted", winner=other)
    paths = [f"/games/{game.pk}/", f"/series/{game.series_id}/", f"/api/games/{game.pk}/"]
    return game, paths


def test_a_login_renamed_in_the_admin_shows_at_once_with_the_corrections_it_made() -> None:
    """A correction shows its director's login (game and series pages, the API)."""
    boss = director("first-login")
    t = round_robin(4, by=boss)
    _, paths = _corrected(t, boss)
    visitor = Client()
    _warm(visitor, paths, "first-login")
    with app_server("B"):
        _admin_post(_admin(), f"/admin/auth/user/{boss.pk}/change/", username="second-login")
    with app_server("A"):
        for path in paths:
            page = _read(visitor, path)
            assert "second-login" in page and "first-login" not in page, path


def test_a_login_deleted_in_the_admin_is_gone_at_once_from_the_corrections_it_made() -> None:
    boss = director("gone-login")
    t = round_robin(4, by=boss)
    _, paths = _corrected(t, boss)
    visitor = Client()
    _warm(visitor, paths, "gone-login")
    with app_server("B"):
        response = _admin().post(f"/admin/auth/user/{boss.pk}/delete/", {"post": "yes"})
        assert response.status_code == 302
    with app_server("A"):
        for path in paths:
            assert "gone-login" not in _read(visitor, path), path


def test_a_director_deleted_in_the_admin_is_gone_at_once_from_the_tournaments_api() -> None:
    """The API's tournament lists its directors: a login deleted takes its row away
    (no m2m_changed is sent for it)."""
    boss, other = director("staying"), director("leaving")
    t = round_robin(4, by=boss)
    t.directors.add(other)
    visitor = Client()
    path = f"/api/tournaments/{t.pk}/"
    with app_server("A"):
        assert visitor.get(path).json()["directors"] == sorted([boss.pk, other.pk])
        visitor.get(path)
    with app_server("B"):
        assert (
            _admin().post(f"/admin/auth/user/{other.pk}/delete/", {"post": "yes"}).status_code
            == 302
        )
    with app_server("A"):
        assert visitor.get(path).json()["directors"] == [boss.pk]


def _player_paths(t: Tournament, player: Player) -> list[str]:
    """The cached reads that show ``player``'s name: the tournament's pages, a series and
    a game of theirs, their opponent's page, the API."""
    series = Series.objects.filter(tournament=t, player1=player, games__isnull=False).first()
    series = series or Series.objects.filter(tournament=t, player2=player, games__isnull=False)[0]
    game = series.games.order_by("number")[0]
    opponent = series.player2_id if series.player1_id == player.pk else series.player1_id
    return [
        f"/tournaments/{t.pk}/",
        f"/api/tournaments/{t.pk}/standings/",
        f"/series/{series.pk}/",
        f"/games/{game.pk}/",
        f"/players/{player.pk}/",
        f"/players/{opponent}/",
        f"/api/series/{series.pk}/",
        f"/api/players/{player.pk}/",
        "/api/players/",
    ]


@pytest.mark.parametrize("door", ["admin", "api"])
def test_a_player_renamed_shows_at_once_on_every_page_showing_the_name(door: str) -> None:
    t = round_robin(4)
    player = Player.objects.filter(entries__tournament=t).order_by("pk")[0]
    old = player.name
    paths = _player_paths(t, player)
    visitor = Client()
    _warm(visitor, paths, old)
    with app_server("B"):
        staff = _admin()
        if door == "admin":
            _admin_post(staff, f"/admin/tournaments/player/{player.pk}/change/", name="Novák Nový")
        else:
            response = staff.patch(
                f"/api/players/{player.pk}/",
                {"name": "Novák Nový"},
                content_type="application/json",
            )
            assert response.status_code == 200, response.content
    with app_server("A"):
        for path in paths:
            page = _read(visitor, path)
            assert "Novák Nový" in page or "Nov\\u00e1k Nov\\u00fd" in page, path
            assert old not in page, path


# --- once a transaction (caching/generations.py): one bump, never a lost one ---


class Undone(Exception):
    """Raised to roll a savepoint back."""


def _rename_in_savepoint_undone(t: Tournament) -> None:
    try:
        with transaction.atomic():
            tournament_update(tournament=t, name="Undone cup")
            raise Undone
    except Undone:
        pass


def _renamed_in_one_transaction(t: Tournament, write: Callable[[], None]) -> str:
    """The tournament's page (warm through A) after ``write`` in one transaction through B."""
    visitor = Client()
    path = f"/tournaments/{t.pk}/"
    with app_server("A"):
        assert t.name in _read(visitor, path)
        _read(visitor, path)
    with app_server("B"), transaction.atomic():
        write()
    with app_server("A"):
        return _read(visitor, path)


def test_a_write_kept_after_a_savepoint_rolled_back_shows_at_once() -> None:
    """The bump made inside a savepoint that rolled back is undone with it: the write
    that stays must bump again, not count on it."""
    t = round_robin(4)
    old = ahead_of_the_clock(t)

    def write() -> None:
        _rename_in_savepoint_undone(t)
        tournament_update(tournament=t, name="Kept cup")

    page = _renamed_in_one_transaction(t, write)
    assert "Kept cup" in page and "Undone cup" not in page
    assert Tournament.objects.get(pk=t.pk).cache_version == old + 1


def test_a_savepoint_rolled_back_after_a_write_keeps_its_bump() -> None:
    t = round_robin(4)
    old = ahead_of_the_clock(t)

    def write() -> None:
        tournament_update(tournament=t, name="Kept cup")
        _rename_in_savepoint_undone(t)

    page = _renamed_in_one_transaction(t, write)
    assert "Kept cup" in page and "Undone cup" not in page
    assert Tournament.objects.get(pk=t.pk).cache_version == old + 1


def test_writes_in_one_transaction_bump_the_version_once_and_show_at_once() -> None:
    t = round_robin(4)
    player = Player.objects.filter(entries__tournament=t).order_by("pk")[0]
    old = ahead_of_the_clock(t)

    def write() -> None:
        tournament_update(tournament=t, name="First cup")
        player_update(player=player, name="Renamed Player")
        tournament_update(tournament=t, name="Second cup")

    page = _renamed_in_one_transaction(t, write)
    assert "Second cup" in page and ">Renamed Player<" in page
    assert Tournament.objects.get(pk=t.pk).cache_version == old + 1


def test_a_club_deleted_in_the_admin_is_gone_at_once_from_the_standings() -> None:
    """Its players stay, without a club (a cascade that sends no signal): the standings
    name each player's club."""
    t = round_robin(4)
    player = Player.objects.filter(entries__tournament=t).order_by("pk")[0]
    club = Club.objects.create(name="Vanishing club")
    player_update(player=player, club=club)
    paths = [f"/api/tournaments/{t.pk}/standings/", f"/players/{player.pk}/", "/api/clubs/"]
    visitor = Client()
    _warm(visitor, paths, "Vanishing club")
    with app_server("B"):
        response = _admin().post(f"/admin/tournaments/club/{club.pk}/delete/", {"post": "yes"})
        assert response.status_code == 302
    with app_server("A"):
        for path in paths:
            assert "Vanishing club" not in _read(visitor, path), path
