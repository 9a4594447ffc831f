"""Every page of the site, for the browser checks that must hold on all of them (no
sideways overflow at 390 px, no axe-core violation): one list, one line per page.

``build_site`` makes a small world through the services (a round robin with a recorded
game, a Swiss and a knockout, a player with an account, a director, a job) and returns the
values the URL templates below are filled with. Adding a page is adding one line to
``PAGES``: (who looks at it, the URL template)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import Permission, User
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, Page, Route

from tests.tournaments.pages_data import recorded_game, round_robin
from tournaments.jobs.runner import job_start
from tournaments.models import Player, Series, Tournament
from tournaments.services.invitations import invitation_token
from tournaments.services.pairings import bracket_create, round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create

ANONYMOUS, PLAYER, DIRECTOR = "anonymous", "player", "director"
ROLES = (ANONYMOUS, PLAYER, DIRECTOR)
PASSWORD = "a-long-secret-1"

# (roles that look at the page, URL template filled from build_site's values)
EVERYBODY = ROLES
SIGNED_IN = (PLAYER, DIRECTOR)
PAGES: list[tuple[tuple[str, ...], str]] = [
    (EVERYBODY, "/"),
    (EVERYBODY, "/tournaments/{rr}/"),
    (EVERYBODY, "/tournaments/{swiss}/"),
    (EVERYBODY, "/tournaments/{ko}/"),
    (EVERYBODY, "/tournaments/{rr}/print/"),
    (EVERYBODY, "/tournaments/{swiss}/print/"),
    (EVERYBODY, "/tournaments/{rr}/print/round/"),
    (EVERYBODY, "/tournaments/{rr}/print/standings/"),
    (EVERYBODY, "/tournaments/{swiss}/print/standings/"),
    (EVERYBODY, "/tournaments/{ko}/print/standings/"),
    (EVERYBODY, "/series/{series}/"),
    (EVERYBODY, "/series/{open_series}/"),
    (EVERYBODY, "/games/{game}/"),
    (EVERYBODY, "/games/{game}/?turn=0"),
    (EVERYBODY, "/players/{player}/"),
    (EVERYBODY, "/invitations/{token}/"),
    (EVERYBODY, "/no-such-page/"),  # 404
    (EVERYBODY, "/api/docs/"),
    (EVERYBODY, "/api/redoc/"),
    ((ANONYMOUS,), "/accounts/login/"),
    ((ANONYMOUS,), "/accounts/password_reset/"),
    ((ANONYMOUS,), "/accounts/password_reset/done/"),
    ((ANONYMOUS,), "/accounts/reset/done/"),
    ((ANONYMOUS,), "/accounts/reset/MQ/bad-token/"),
    (SIGNED_IN, "/confirmations/"),
    (SIGNED_IN, "/jobs/"),
    ((PLAYER,), "/tournaments/{rr}/edit/"),  # 403
    ((DIRECTOR,), "/tournaments/new/"),
    ((DIRECTOR,), "/tournaments/{rr}/edit/"),
    ((DIRECTOR,), "/tournaments/{rr}/players/"),
    ((DIRECTOR,), "/tournaments/{swiss}/players/"),
    ((DIRECTOR,), "/tournaments/{ko}/players/"),
    ((DIRECTOR,), "/tournaments/{rr}/people/"),
    ((DIRECTOR,), "/tournaments/{rr}/players/{other}/invite/"),
    ((DIRECTOR,), "/tournaments/{rr}/round/"),
    ((DIRECTOR,), "/tournaments/{rr}/round/1/"),
    ((DIRECTOR,), "/tournaments/{rr}/round/2/delete/"),
    ((DIRECTOR,), "/series/{open_series}/sheet/"),
    ((DIRECTOR,), "/series/{open_series}/upload/"),
    ((DIRECTOR,), "/games/{game}/correct/"),
    ((DIRECTOR,), "/jobs/{job}/"),
    ((DIRECTOR,), "/jobs/import/players/"),
    ((DIRECTOR,), "/jobs/import/tournament/"),
]
SERVER_ERROR = "/__server_error__/"  # the 500 page, served by serve_error_page


def pages_for(role: str, values: dict[str, int | str]) -> list[str]:
    return [url.format(**values) for roles, url in PAGES if role in roles]


def _swiss(director: User) -> Tournament:
    t = tournament_create(
        name="Swiss open", start_date=datetime.date(2026, 5, 2), format="swiss", series_length=1
    )
    t.directors.add(director)
    for i in range(5):
        entry_register(
            tournament=t, player=Player.objects.create(name=f"Swiss player {i + 1}", rating=1500)
        )
    for _ in range(2):
        rnd = round_generate(tournament=t)
        for s in Series.objects.filter(round=rnd, player2__isnull=False).select_related(
            "player1", "player2", "tournament"
        ):
            white = series_next_white(s, []) or s.player1
            assert white is not None
            game_enter_quick(series=s, white=white, winner=white, kind="oin")
    return t


def _knockout(director: User) -> Tournament:
    t = tournament_create(
        name="Knockout", start_date=datetime.date(2026, 5, 3), format="double_elimination"
    )
    t.directors.add(director)
    for i in range(6):
        entry_register(
            tournament=t, player=Player.objects.create(name=f"Knockout {i + 1}", rating=1500 + i)
        )
    bracket_create(tournament=t)
    return t


@dataclass(frozen=True, slots=True)
class Site:
    values: dict[str, int | str]
    users: dict[str, User | None]


def build_site() -> Site:
    director = User.objects.create_user("director", password=PASSWORD, is_staff=True)
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    rr = round_robin(6, by=director, name="Club cup with a long name")
    game = recorded_game(rr)
    player = game.white
    player_user = User.objects.create_user("player", password=PASSWORD)
    player.user = player_user
    player.save(update_fields=["user"])
    other = game.black  # no account yet: an invitation to claim
    open_series = Series.objects.filter(tournament=rr, status="scheduled", player2__isnull=False)
    job = job_start(kind="recompute", params={"tournament": rr.pk}, by=director, tournament=rr)
    values: dict[str, int | str] = {
        "rr": rr.pk,
        "swiss": _swiss(director).pk,
        "ko": _knockout(director).pk,
        "series": game.series_id,
        "open_series": open_series.order_by("id").first().pk,
        "game": game.pk,
        "player": player.pk,
        "other": other.pk,
        "token": invitation_token(player=other),
        "job": job.pk,
    }
    return Site(values, {ANONYMOUS: None, PLAYER: player_user, DIRECTOR: director})


def all_pages(site: Site, role: str) -> list[str]:
    """The addresses ``role`` visits, the 500 page included."""
    return [*pages_for(role, site.values), SERVER_ERROR]


def session_cookie(user: User, url: str) -> dict[str, str]:
    """The session cookie of ``user`` signed in, for a browser context on ``url``."""
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def open_as(
    browser: Browser, site: Site, role: str, *, language: str, width: int, base: str
) -> BrowserContext:
    """A browser context of ``role`` (signed in unless anonymous) in ``language``."""
    context = browser.new_context(locale=language, viewport={"width": width, "height": 900})
    context.set_default_timeout(15_000)
    user = site.users[role]
    if user is not None:
        context.add_cookies([session_cookie(user, base)])  # type: ignore[list-item]
    return context


def serve_error_page(context: BrowserContext, base: str) -> None:
    """The 500 page cannot be asked for: the browser gets it rendered as Django's
    server_error view renders it, under a made-up address of the live server."""

    def answer(route: Route) -> None:
        lang = route.request.headers.get("accept-language", "cs")[:2]
        with translation.override(lang):
            html = render_to_string("500.html")
        route.fulfill(status=500, body=html, content_type="text/html; charset=utf-8")

    context.route(base + SERVER_ERROR, answer)


def check_every_page(
    browser: Browser,
    site: Site,
    base: str,
    check: Callable[[Page], list[str]],
    *,
    language: str,
    width: int,
    leave_out: tuple[str, ...] = (),
) -> dict[str, list[str]]:
    """``check`` run on every page, as every role (one context per role): what it found,
    by role and address. A page answering 5xx (other than the 500 page) is a finding."""
    found: dict[str, list[str]] = {}
    for role in ROLES:
        context = open_as(browser, site, role, language=language, width=width, base=base)
        serve_error_page(context, base)
        page = context.new_page()
        for url in all_pages(site, role):
            if url in leave_out:
                continue
            response = page.goto(base + url)
            if url.startswith("/api/"):  # drawn by scripts from the schema
                page.wait_for_load_state("networkidle")
            problems = []
            if response is None or (response.status >= 500 and url != SERVER_ERROR):
                problems.append(f"answered {response.status if response else 'nothing'}")
            problems += check(page)
            if problems:
                found[f"{role} {url}"] = problems
        context.close()
    return found


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{where}: {'; '.join(what)}" for where, what in found.items())
