"""Every page of the site, for the browser checks that must hold on all of them (no
sideways overflow at 390 px, no axe-core violation): one list, one line per page.

``build_site`` makes a small world through the services (a round robin with a recorded
game, a Swiss and a knockout, a player with an account, a director with access to the
admin, a job, a username locked out after failed sign-ins, a password reset link, a
sign-up's confirmation link, a result waiting for the director's confirmation) and returns
the values the URL templates below are filled with. Adding a page is adding one line to
``PAGES``: (who looks at it, the URL template), and a third element for the page after its
form is posted with that data (to show its error messages, next to the fields
or, for a refused action, as a message after a redirect): the browser opens the page,
puts the data in the form that has those fields and sends it. A value may be an
:class:`Upload`, a file chosen in the form's file field (the refused uploads: not UTF-8,
larger than the limit, which the browser tests set to ``UPLOAD_LIMIT``)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from django.conf import settings
from django.contrib.auth.models import Permission, User
from django.contrib.auth.tokens import default_token_generator
from django.db.models import Q
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import Browser, BrowserContext, Page, Response, Route

from tests.tournaments.helpers import rated_player
from tests.tournaments.pages_data import recorded_game, round_robin
from tournaments.engine import bot_dice, bot_legal_turns, bot_state
from tournaments.jobs.runner import job_start
from tournaments.models import BotGame, Challenge, GameAnalysis, Player, Room, Series, Tournament
from tournaments.selectors.analysis import record_analysis
from tournaments.selectors.botgames import bot_game_analysis
from tournaments.services.accounts import account_signup
from tournaments.services.botgames import botgame_play, botgame_resign, botgame_start
from tournaments.services.invitations import invitation_token
from tournaments.services.online.challenges import challenge_accept, challenge_create
from tournaments.services.online.rooms import room_act
from tournaments.services.pairings import bracket_create, round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.roster import prohibited_pair_add
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create
from tournaments.services.submissions import ReportRow, report_create, submission_create

ANONYMOUS, PLAYER, DIRECTOR = "anonymous", "player", "director"
ROLES = (ANONYMOUS, PLAYER, DIRECTOR)
# How each role sees the site in the checks that visit every page once per colour scheme
# (tests/browser/test_accessibility.py, test_layout.py): (language, width). Between them
# both languages and both widths are seen, each page once per role; the Czech ones are
# also searched for English left (tests/browser/language.py). Visitors and players read
# on phones, the director at a desk.
SEEN_AS: dict[str, tuple[str, int]] = {
    ANONYMOUS: ("cs", 390),
    PLAYER: ("en", 390),
    DIRECTOR: ("cs", 1280),
}
PASSWORD = "a-long-secret-1"
LOCKED_OUT = "locked-out"  # a username that failed to sign in too often (django-axes)

# (roles that look at the page, URL template filled from build_site's values[, what the
# browser posts through the page's form, values filled the same way: the page answered])
EVERYBODY = ROLES
SIGNED_IN = (PLAYER, DIRECTOR)
# the upload limits (JOBS_INPUT_MAX_BYTES, NARDY_MAX_UPLOAD_BYTES) while the browser
# tests run (tests/browser/conftest.py): a file just over them is small enough to post
UPLOAD_LIMIT = 2**20


@dataclass(frozen=True, slots=True)
class Upload:
    """A file chosen in a form's file field: ``head``, then "a" up to ``size`` bytes."""

    name: str
    head: bytes = b""
    size: int = 0

    def for_browser(self) -> dict[str, object]:
        return {
            "upload": self.name,
            "bytes": list(self.head),
            "size": max(self.size, len(self.head)),
        }


NOT_UTF8 = b"name\n\xff\xfe\n"
TOO_LARGE = UPLOAD_LIMIT + 1
Posted = dict[str, str | Upload]
PageLine = tuple[tuple[str, ...], str] | tuple[tuple[str, ...], str, Posted]
PAGES: list[PageLine] = [
    (EVERYBODY, "/"),
    (EVERYBODY, "/tournaments/{rr}/"),
    (EVERYBODY, "/tournaments/{swiss}/"),
    (EVERYBODY, "/tournaments/{ko}/"),
    (EVERYBODY, "/tournaments/{rr}/print/"),
    (EVERYBODY, "/tournaments/{swiss}/print/"),
    (EVERYBODY, "/tournaments/{ko}/print/"),
    (EVERYBODY, "/tournaments/{rr}/print/round/"),
    (EVERYBODY, "/tournaments/{rr}/print/round/1/"),
    (EVERYBODY, "/tournaments/{swiss}/print/round/"),
    (EVERYBODY, "/tournaments/{rr}/print/standings/"),
    (EVERYBODY, "/tournaments/{swiss}/print/standings/"),
    (EVERYBODY, "/tournaments/{ko}/print/standings/"),
    (EVERYBODY, "/tournaments/{rr}/hall/"),
    (EVERYBODY, "/tournaments/{swiss}/hall/"),
    (EVERYBODY, "/tournaments/{ko}/hall/"),
    (EVERYBODY, "/series/{series}/"),
    (EVERYBODY, "/series/{open_series}/"),
    (EVERYBODY, "/games/{game}/"),
    (EVERYBODY, "/games/{game}/?turn=0"),
    (EVERYBODY, "/games/{game}/?turn={game_error}"),  # an error: the best play beside it
    (EVERYBODY, "/players/{player}/"),
    (EVERYBODY, "/invitations/{token}/"),
    (EVERYBODY, "/invitations/not-a-token/"),  # 400: the link is wrong
    (EVERYBODY, "/no-such-page/"),  # 404
    (EVERYBODY, "/api/docs/"),
    (EVERYBODY, "/api/redoc/"),
    ((ANONYMOUS,), "/invitations/{token}/", {"username": "", "password": ""}),
    ((ANONYMOUS,), "/accounts/login/"),
    ((ANONYMOUS,), "/accounts/login/", {"username": "player", "password": "wrong"}),
    ((ANONYMOUS,), "/accounts/login/", {"username": LOCKED_OUT, "password": "wrong"}),  # 429
    ((ANONYMOUS,), "/accounts/password_reset/"),
    ((ANONYMOUS,), "/accounts/password_reset/", {"email": "not an address"}),
    ((ANONYMOUS,), "/accounts/password_reset/done/"),
    ((ANONYMOUS,), "/accounts/reset/{reset}/"),
    ((ANONYMOUS,), "/accounts/reset/{reset}/", {"new_password1": "a", "new_password2": "b"}),
    ((ANONYMOUS,), "/accounts/reset/done/"),
    ((ANONYMOUS,), "/accounts/reset/MQ/bad-token/"),
    ((ANONYMOUS,), "/accounts/signup/"),
    ((ANONYMOUS,), "/accounts/signup/", {"username": "player", "email": "x", "password": "1"}),
    ((ANONYMOUS,), "/accounts/signup/sent/"),
    ((ANONYMOUS,), "/accounts/signup/again/"),
    ((ANONYMOUS,), "/accounts/signup/again/", {"email": "not an address"}),
    ((ANONYMOUS,), "/accounts/confirm/{confirm}/"),
    ((ANONYMOUS,), "/accounts/confirm/not-a-token/"),  # 400: the link is wrong
    ((ANONYMOUS,), "/admin/login/"),
    ((ANONYMOUS,), "/admin/login/", {"username": "director", "password": "wrong"}),
    (SIGNED_IN, "/accounts/password_change/"),
    (SIGNED_IN, "/accounts/password_change/", {"old_password": "wrong", "new_password1": "a"}),
    (SIGNED_IN, "/accounts/password_change/done/"),
    (SIGNED_IN, "/confirmations/"),
    ((DIRECTOR,), "/reports/{report}/"),
    ((PLAYER,), "/series/{own_series}/report/"),
    ((PLAYER,), "/series/{own_series}/report/", {"record": "1. 65: 24/18"}),  # refused
    ((DIRECTOR,), "/confirmations/", {"note": "x" * 501}),  # refused: the note is too long
    (SIGNED_IN, "/jobs/"),
    ((PLAYER,), "/staff/accounts/"),  # 403: staff only
    ((DIRECTOR,), "/staff/accounts/"),
    ((DIRECTOR,), "/staff/accounts/?q=player"),
    (SIGNED_IN, "/play/"),
    ((PLAYER,), "/play/{bot_playing}/"),
    ((PLAYER,), "/play/{bot_playing}/", {"version": "0", "turn": "nonsense"}),  # refused
    ((PLAYER,), "/play/{bot_done}/"),
    ((PLAYER,), "/play/{bot_done}/?turn={bot_error}"),
    ((PLAYER,), "/play/", {"c-opponent_kind": "user", "c-opponent": "", "c-length": "99"}),
    (EVERYBODY, "/play/rooms/{room}/"),  # the player's room; the others watch it
    ((PLAYER,), "/play/challenges/{challenge}/{challenge_token}/"),
    ((PLAYER,), "/tournaments/{rr}/edit/"),  # 403
    ((PLAYER,), "/series/{own_series}/"),
    ((PLAYER,), "/series/{own_series}/", {"winner": "", "kind": "oin"}),
    ((DIRECTOR,), "/tournaments/new/"),
    ((DIRECTOR,), "/tournaments/new/", {"name": "", "series_length": "0"}),
    ((DIRECTOR,), "/tournaments/{rr}/edit/"),
    ((DIRECTOR,), "/tournaments/{rr}/edit/", {"name": ""}),
    ((DIRECTOR,), "/tournaments/{rr}/players/"),
    ((DIRECTOR,), "/tournaments/{swiss}/players/"),
    ((DIRECTOR,), "/tournaments/{ko}/players/"),
    ((DIRECTOR,), "/tournaments/{swiss}/players/", {"player": "", "new_name": ""}),
    ((DIRECTOR,), "/tournaments/{swiss}/players/{swiss_player}/withdraw/"),
    ((DIRECTOR,), "/tournaments/{rr}/people/"),
    ((DIRECTOR,), "/tournaments/{rr}/people/", {"op": "director", "username": "nobody"}),
    ((DIRECTOR,), "/tournaments/{rr}/people/", {"op": "pair", "player_a": "", "player_b": ""}),
    ((DIRECTOR,), "/tournaments/{rr}/people/directors/director/remove/"),
    ((DIRECTOR,), "/tournaments/{swiss}/people/"),
    ((DIRECTOR,), "/tournaments/{swiss}/people/pairs/{pair}/remove/"),
    ((DIRECTOR,), "/tournaments/{rr}/players/{other}/invite/"),
    ((DIRECTOR,), "/tournaments/{rr}/players/{other}/invite/", {"email": "not an address"}),
    ((DIRECTOR,), "/tournaments/{swiss}/players/import/"),
    ((DIRECTOR,), "/tournaments/{swiss}/players/import/", {"file": ""}),
    (
        (DIRECTOR,),
        "/tournaments/{swiss}/players/import/",
        {"file": Upload("players.csv", NOT_UTF8)},
    ),
    ((DIRECTOR,), "/tournaments/{rr}/round/"),
    ((DIRECTOR,), "/tournaments/{rr}/round/1/"),
    ((DIRECTOR,), "/tournaments/{rr}/round/", {"player_a": "", "player_b": ""}),  # refused
    ((DIRECTOR,), "/tournaments/{rr}/round/2/delete/"),
    ((DIRECTOR,), "/tournaments/{swiss}/round/"),
    ((DIRECTOR,), "/series/{open_series}/", {"winner": "", "kind": "oin"}),
    ((DIRECTOR,), "/series/{open_series}/", {"record": "1) 64: 24/18 13/9"}),
    ((DIRECTOR,), "/series/{open_series}/", {"upload": Upload("game.nrd", NOT_UTF8)}),
    ((DIRECTOR,), "/series/{open_series}/", {"upload": Upload("game.nrd", size=TOO_LARGE)}),
    ((DIRECTOR,), "/series/{open_series}/sheet/"),
    ((DIRECTOR,), "/series/{open_series}/sheet/", {"g1-white": "{open_white}", "g1-kind": ""}),
    ((DIRECTOR,), "/series/{open_series}/upload/"),
    ((DIRECTOR,), "/series/{open_series}/upload/", {"file": ""}),
    ((DIRECTOR,), "/series/{open_series}/upload/", {"file": Upload("games.nrd", NOT_UTF8)}),
    ((DIRECTOR,), "/series/{open_series}/upload/", {"file": Upload("games.nrd", size=TOO_LARGE)}),
    ((DIRECTOR,), "/games/{game}/correct/"),
    ((DIRECTOR,), "/games/{game}/correct/", {"reason": "", "cube": "0"}),
    ((DIRECTOR,), "/games/{game}/delete/"),
    ((DIRECTOR,), "/games/{game}/delete/", {"reason": ""}),  # refused: no reason
    ((DIRECTOR,), "/jobs/{job}/"),
    ((DIRECTOR,), "/jobs/import/players/"),
    ((DIRECTOR,), "/jobs/import/players/", {"file": ""}),
    ((DIRECTOR,), "/jobs/import/players/", {"file": Upload("players.csv", size=TOO_LARGE)}),
    ((DIRECTOR,), "/jobs/import/tournament/"),
    ((DIRECTOR,), "/jobs/import/tournament/", {"file": ""}),
    ((DIRECTOR,), "/jobs/import/tournament/", {"file": Upload("archive.json", NOT_UTF8)}),
    ((DIRECTOR,), "/admin/"),
    ((DIRECTOR,), "/admin/tournaments/"),
    ((DIRECTOR,), "/admin/tournaments/tournament/"),
    ((DIRECTOR,), "/admin/tournaments/tournament/{rr}/change/"),
    ((DIRECTOR,), "/admin/tournaments/player/"),
    ((DIRECTOR,), "/admin/tournaments/player/?q=Club"),
    ((DIRECTOR,), "/admin/tournaments/player/?o=1"),  # sorted by a column
    ((DIRECTOR,), "/admin/tournaments/player/?o=-1.2"),  # by two: priorities shown
    ((DIRECTOR,), "/admin/tournaments/player/{player}/change/"),
    ((DIRECTOR,), "/admin/tournaments/club/add/"),
    ((DIRECTOR,), "/admin/tournaments/club/add/", {"name": ""}),
    ((DIRECTOR,), "/admin/tournaments/player/{player}/delete/"),
    ((DIRECTOR,), "/admin/tournaments/game/{game}/delete/"),
    ((DIRECTOR,), "/admin/tournaments/botgame/"),
    ((DIRECTOR,), "/admin/tournaments/botgame/{bot_done}/change/"),
    ((DIRECTOR,), "/admin/tournaments/submission/"),
    ((DIRECTOR,), "/admin/tournaments/job/"),
    ((DIRECTOR,), "/admin/tournaments/job/{job}/change/"),
    ((DIRECTOR,), "/admin/tournaments/gameanalysis/"),
    ((DIRECTOR,), "/admin/password_change/"),
]
SERVER_ERROR = "/__server_error__/"  # the 500 page, served by serve_error_page


@dataclass(frozen=True, slots=True)
class Visit:
    """A page as a role sees it: its address, and what is posted through its form."""

    url: str
    posted: Posted | None = None

    def __str__(self) -> str:
        return f"{self.url} posted {self.posted}" if self.posted is not None else self.url


def pages_for(role: str, values: dict[str, int | str]) -> list[Visit]:
    visits = []
    for roles, url, *posted in PAGES:
        if role in roles:
            data = (
                {k: v.format(**values) if isinstance(v, str) else v for k, v in posted[0].items()}
                if posted
                else None
            )
            visits.append(Visit(url.format(**values), data))
    return visits


def _swiss(director: User) -> Tournament:
    t = tournament_create(
        name="Swiss open", start_date=datetime.date(2026, 5, 2), format="swiss", series_length=1
    )
    t.directors.add(director)
    for i in range(5):
        entry_register(tournament=t, player=rated_player(f"Swiss player {i + 1}", 1500))
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
        entry_register(tournament=t, player=rated_player(f"Knockout {i + 1}", 1500 + i))
    bracket_create(tournament=t)
    return t


def _pending_result(t: Tournament) -> None:
    """A result submitted by a player of ``t``, waiting for its director."""
    s = Series.objects.filter(tournament=t, player2__isnull=False, status="scheduled")
    series = s.select_related("player1", "player2", "tournament").order_by("id").first()
    assert series is not None and series.player1 is not None
    user = User.objects.create_user("knockout-player", password=PASSWORD)
    Player.objects.filter(pk=series.player1_id).update(user=user)
    white = series_next_white(series, []) or series.player1
    submission_create(series=series, by=user, number=1, white=white, winner=white, kind="oin")


def _pending_report(t: Tournament) -> int:
    """A series of ``t`` reported whole by a player, waiting for its director: its pk."""
    s = Series.objects.filter(tournament=t, player2__isnull=False, status="scheduled")
    series = s.select_related("player1", "player2", "tournament").order_by("-id").first()
    assert series is not None and series.player1 is not None
    user = User.objects.create_user("knockout-reporter", password=PASSWORD)
    Player.objects.filter(pk=series.player1_id).update(user=user)
    white = series_next_white(series, []) or series.player1
    rows = [ReportRow(white=white, winner=white, kind="oin")]
    return report_create(series=series, by=user, rows=rows).pk


def _online(player: User, director: User) -> tuple[Room, Challenge]:
    """A game room being played (the player against the director, both seeds in) and a
    challenge by link from the director."""
    made = challenge_create(user=player, variant="long", opponent=director.username)
    room = challenge_accept(challenge_id=made.pk, user=director)
    for user in (player, director):
        seq = Room.objects.get(pk=room.pk).seq
        room_act(room_id=room.pk, user=user, message={"action": "seed", "seq": seq, "seed": "5eed"})
    link = challenge_create(user=director, variant="short", link=True)
    return room, link


@dataclass(frozen=True, slots=True)
class Site:
    values: dict[str, int | str]
    users: dict[str, User | None]


# what a staff director is given in the admin, besides creating tournaments
ADMIN_PERMISSIONS = (
    "add_tournament", "view_tournament", "change_tournament", "view_player", "change_player",
    "delete_player", "view_club", "add_club", "change_club", "view_submission", "view_job",
    "view_gameanalysis", "view_botgame",
)  # fmt: skip


def _lock_out(username: str) -> None:
    """Fail to sign in as ``username`` through the login page until django-axes locks it
    out from this address (the browser's too: the live server is on 127.0.0.1)."""
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("login"), {"username": username, "password": "wrong"})
    assert response.status_code == settings.AXES_HTTP_RESPONSE_CODE


def _reset_link(user: User) -> str:
    """The part of a password reset link after /accounts/reset/."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return f"{uid}/{default_token_generator.make_token(user)}"


def _confirmation_link() -> str:
    """The part of a sign-up's confirmation link after /accounts/confirm/ (the account
    stays unconfirmed)."""
    links: list[str] = []

    def link(path: str) -> str:
        links.append(path)
        return path

    account_signup(username="newcomer", email="newcomer@example.org", password=PASSWORD, link=link)
    return links[0].rstrip("/").rsplit("/", 1)[1]


def error_frame(record: str, analysis: GameAnalysis | None) -> int:
    """The replay's position after the first turn marked as an error (0: none)."""
    marks = record_analysis(record, analysis).marks if analysis is not None else []
    return next((m.frame for m in marks if m.best_pieces), 0)


def bot_games(user: User) -> tuple[BotGame, BotGame]:
    """A game against the bot being played and one resigned after a few turns (analysed)."""
    playing = botgame_start(user=user, level="beginner", colour="white")
    done = botgame_start(user=user, level="beginner", colour="white")
    for _ in range(10):
        state = bot_state(done.record)
        turn = bot_legal_turns(state, bot_dice(done.seed, state.number))[0].notation
        done = botgame_play(game_id=done.pk, user=user, version=done.version, turn=turn)
    return playing, botgame_resign(game_id=done.pk, user=user, version=done.version)


def build_site() -> Site:
    director = User.objects.create_user("director", password=PASSWORD, is_staff=True)
    director.user_permissions.add(*Permission.objects.filter(codename__in=ADMIN_PERMISSIONS))
    rr = round_robin(6, by=director, name="Club cup with a long name")
    game = recorded_game(rr)
    player = game.white
    player_user = User.objects.create_user("player", password=PASSWORD)
    player.user = player_user
    player.save(update_fields=["user"])
    other = game.black  # no account yet: an invitation to claim
    open_series = Series.objects.filter(tournament=rr, status="scheduled", player2__isnull=False)
    job = job_start(kind="recompute", params={"tournament": rr.pk}, by=director, tournament=rr)
    first_open = open_series.order_by("id").first()
    own = open_series.filter(Q(player1=player) | Q(player2=player)).order_by("id").first()
    swiss = _swiss(director)
    kept_apart = [e.player for e in swiss.entries.order_by("id")[:2]]
    pair = prohibited_pair_add(
        tournament=swiss, player_a=kept_apart[0], player_b=kept_apart[1], reason="brothers"
    )
    # signs in nowhere: a sign-in would make the reset link invalid
    forgetful = User.objects.create_user("forgetful", password=PASSWORD)
    _lock_out(LOCKED_OUT)
    ko = _knockout(director)
    bot_playing, bot_done = bot_games(player_user)
    room, link = _online(player_user, director)
    _pending_result(ko)  # the director's confirmations page has a reject form
    report = _pending_report(ko)
    values: dict[str, int | str] = {
        "rr": rr.pk,
        "swiss": swiss.pk,
        "swiss_player": kept_apart[0].pk,
        "pair": pair.pk,
        "ko": ko.pk,
        "series": game.series_id,
        "open_series": first_open.pk,
        "open_white": first_open.player1_id,
        "own_series": own.pk,
        "game": game.pk,
        "game_error": error_frame(game.record, GameAnalysis.objects.filter(game=game).first()),
        "bot_playing": bot_playing.pk,
        "bot_done": bot_done.pk,
        "bot_error": error_frame(bot_done.record, bot_game_analysis(bot_done)),
        "room": room.pk,
        "challenge": link.pk,
        "challenge_token": link.token,
        "player": player.pk,
        "other": other.pk,
        "token": invitation_token(player=other),
        "job": job.pk,
        "reset": _reset_link(forgetful),
        "confirm": _confirmation_link(),
        "report": report,
    }
    return Site(values, {ANONYMOUS: None, PLAYER: player_user, DIRECTOR: director})


def all_pages(site: Site, role: str) -> list[Visit]:
    """The pages ``role`` visits, the 500 page included."""
    return [*pages_for(role, site.values), Visit(SERVER_ERROR)]


def session_cookie(user: User, url: str) -> dict[str, str]:
    """The session cookie of ``user`` signed in, for a browser context on ``url``."""
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def open_as(
    browser: Browser, site: Site, role: str, *, language: str, width: int, base: str,
    color_scheme: Literal["light", "dark"] = "light",
) -> BrowserContext:  # fmt: skip
    """A browser context of ``role`` (signed in unless anonymous) in ``language``, its
    ``prefers-color-scheme`` emulated as ``color_scheme``."""
    context = browser.new_context(
        locale=language, viewport={"width": width, "height": 900}, color_scheme=color_scheme
    )
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


# the form of the page that has a field of the posted data: the posted fields take the
# place of its own (with their values as they are, valid choices or not); it is then
# sent as the browser sends it, without the browser's own checks (required, type=email)
# A file (an Upload) is put in the form's file field of its name instead.
FILL_FORM = """(data) => {
  const names = Object.keys(data);
  const form = [...document.forms].find(
    (f) => f.method === "post" && names.some((n) => f.querySelector(`[name="${n}"]`)));
  if (!form) return false;
  const isFile = (value) => typeof value === "object";
  for (const el of form.querySelectorAll("[name]")) {
    if (names.includes(el.name) && !(isFile(data[el.name]) && el.type === "file")) {
      el.removeAttribute("name");
    }
  }
  for (const [name, value] of Object.entries(data)) {
    if (isFile(value)) {
      const input = form.querySelector(`input[type=file][name="${name}"]`);
      if (!input) return false;
      const bytes = new Uint8Array(value.size).fill(0x61);
      bytes.set(value.bytes);
      const chosen = new DataTransfer();
      chosen.items.add(new File([bytes], value.upload));
      input.files = chosen.files;
      continue;
    }
    form.append(Object.assign(document.createElement("input"), {type: "hidden", name, value}));
  }
  form.dataset.posted = "";
  return true;
}"""
# what sticks out at a phone's width (outside marked scrolling containers), and what
# scrolls unmarked (tests/browser/test_layout.py, test_play.py)
OVERFLOW = """() => {
  const doc = document.documentElement, width = doc.clientWidth, found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.classList.length ? "." + [...el.classList].join(".") : "");
  if (doc.scrollWidth > width) {
    for (const el of document.body.querySelectorAll("*")) {
      const box = el.getBoundingClientRect();
      if (box.width && box.right > width + 0.5 && !el.parentElement.closest(".scroll")) {
        found.push(`${name(el)} reaches ${Math.round(box.right)} px`);
      }
    }
    found.unshift(`page ${doc.scrollWidth} px wide`);
  }
  for (const el of document.body.querySelectorAll("*")) {
    const style = getComputedStyle(el);
    if (!["auto", "scroll"].includes(style.overflowX) || el.scrollWidth <= el.clientWidth + 1) {
      continue;
    }
    const hint = el.previousElementSibling;
    if (!el.classList.contains("scroll")) {
      found.push(`${name(el)} scrolls sideways but is not marked as a scrolling container`);
    } else if (!hint || !hint.classList.contains("scroll-hint") || !hint.checkVisibility()) {
      found.push(`${name(el)} scrolls sideways with no visible hint`);
    }
  }
  return found.slice(0, 8);
}"""
# an action refused as a message on the page it redirects to (ours, the admin's)
REFUSED = ".messages .error, .messagelist .error"
SUBMIT_FORM = "HTMLFormElement.prototype.submit.call(document.querySelector('form[data-posted]'))"


def open_page(page: Page, base: str, visit: Visit) -> tuple[Response | None, list[str]]:
    """``visit``'s page in ``page``: asked for, and its form posted if ``visit`` posts.
    A posted form that is accepted (answered by a redirect to a page with no error
    message) shows no errors: a finding."""
    response = page.goto(base + visit.url)
    if visit.posted is None:
        return response, []
    data = {k: v.for_browser() if isinstance(v, Upload) else v for k, v in visit.posted.items()}
    if not page.evaluate(FILL_FORM, data):
        return response, ["no form on the page has the posted fields"]
    with page.expect_navigation() as navigation:
        page.evaluate(SUBMIT_FORM)
    response = navigation.value
    if response is None or response.request.redirected_from is not None:
        if page.locator(REFUSED).count():  # refused, said in a message after the redirect
            return response, []
        return response, ["the posted data was accepted: no errors shown"]
    return response, []


def check_every_page(
    browser: Browser,
    site: Site,
    base: str,
    check: Callable[[Page], list[str]],
    *,
    language: str,
    width: int,
    leave_out: tuple[str, ...] = (),
    only: str = "/",
    color_scheme: Literal["light", "dark"] = "light",
    roles: tuple[str, ...] = ROLES,
) -> dict[str, list[str]]:
    """``check`` run on every page (whose address starts with ``only``), as each of
    ``roles`` (one context per role): what it found, by role and address. A page
    answering 5xx (other than the 500 page) is a finding."""
    found: dict[str, list[str]] = {}
    for role in roles:
        context = open_as(
            browser, site, role, language=language, width=width, base=base,
            color_scheme=color_scheme,
        )  # fmt: skip
        serve_error_page(context, base)
        page = context.new_page()
        for visit in all_pages(site, role):
            if visit.url in leave_out or not visit.url.startswith(only):
                continue
            response, problems = open_page(page, base, visit)
            if visit.url.startswith("/api/"):  # drawn by scripts from the schema
                page.wait_for_load_state("networkidle")
            if response is None or (response.status >= 500 and visit.url != SERVER_ERROR):
                problems.append(f"answered {response.status if response else 'nothing'}")
            problems += check(page)
            if problems:
                found[f"{role} {visit}"] = problems
        context.close()
    return found


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{where}: {'; '.join(what)}" for where, what in found.items())
