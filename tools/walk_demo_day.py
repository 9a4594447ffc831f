"""Walk a demo day's writes through the pages, with the jobs queued and not run, and time
every request: does any request of the day wait for a job?

    env -u DATABASE_URL -u CACHE_URL .venv/bin/python tools/walk_demo_day.py

A director and the players do, as a browser would (Django's test client, the real
settings: DEBUG off, JOBS_INLINE off, no broker, so a job waits in its table for
``manage.py run_jobs``):

* the director creates a Swiss of long nardy and registers 8 players on its page,
* pairs round 1,
* pastes a full record of game 1 of a series (its analysis is a job),
* a player reports two games of a series (their records pasted) and the opponent
  confirms them (their analysis is a job),
* the director exports the tournament's archive and imports it as a copy,
* a user plays a game against the bot to its end, its last turn timed alone,

and prints every write's time, the slowest request, and the jobs left waiting. It builds
a throwaway test database (SQLite in memory; PostgreSQL's ``test_<name>`` when
``DATABASE_URL`` names one) and drops it at the end. The machine's load moves the
figures; the slowest request is what the question is about.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "walk-demo-day-" + "x" * 50)
os.environ["JOBS_INLINE"] = "0"  # jobs wait in their table: a request must not run one
os.environ["CELERY_BROKER_URL"] = ""
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from engine.selfplay import random_game  # noqa: E402

EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


@dataclass
class Timed:
    what: str
    method: str
    path: str
    status: int
    seconds: float


class Forms(HTMLParser):
    """The forms of a page: each one's attributes and its fields' default values (what a
    browser sends when nothing is changed; a submit button only when clicked)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append({"attrs": a, "fields": {}, "buttons": []})
            return
        if not self.forms:
            return
        fields = self.forms[-1]["fields"]
        name = a.get("name", "")
        if tag == "input" and name:
            self._input(name, a)
        elif tag == "button" and name:
            self.forms[-1]["buttons"].append((name, a.get("value", "")))
        elif tag == "select" and name:
            self._select = name
            fields.setdefault(name, None)
        elif tag == "option" and self._select is not None:
            if fields.get(self._select) is None or "selected" in a:
                fields[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            fields[name] = ""

    def _input(self, name: str, a: dict[str, str]) -> None:
        kind = a.get("type", "text")
        if kind in ("checkbox", "radio"):
            if "checked" in a:
                self.forms[-1]["fields"][name] = a.get("value", "on")
        elif kind == "submit":
            self.forms[-1]["buttons"].append((name, a.get("value", "")))
        elif kind != "file":
            self.forms[-1]["fields"][name] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None and self.forms:
            self.forms[-1]["fields"][self._textarea] += data


def form(html: str, pick: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first form of the page ``pick`` takes (given the form's attributes and, under
    ``"fields"``, its fields)."""
    parser = Forms()
    parser.feed(html)
    for found in parser.forms:
        if pick(found["attrs"] | {"fields": found["fields"]}):
            return found
    raise SystemExit(f"no such form on the page: {[f['attrs'] for f in parser.forms]}")


class Walk:
    def __init__(self) -> None:
        self.timed: list[Timed] = []

    def request(
        self, client: Client, what: str, method: str, path: str, data: Any = None, **extra: Any
    ) -> Any:
        start = time.perf_counter()
        if method == "GET":
            response = client.get(path, data, **EN, **extra)
        else:
            response = client.post(path, data or {}, **EN, **extra)
        seconds = time.perf_counter() - start
        self.timed.append(Timed(what, method, path, response.status_code, seconds))
        if response.status_code >= 400:
            errors = re.findall(r'class="[^"]*error[^"]*"[^>]*>(.*?)</', response.content.decode())
            raise SystemExit(f"{what}: {method} {path} answered {response.status_code}: {errors}")
        return response


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _record(white: str, black: str, seed: int) -> str:
    text = random_game("long", random.Random(seed))
    return text.replace("Random A", white).replace("Random B", black)


def walk(w: Walk) -> None:
    from tournaments.models import BotGame, Series, Tournament

    director = User.objects.create_user("director", password="x", is_staff=True)
    director.user_permissions.add(*_permissions())
    boss = _signed_in(director)
    # a server's first request loads the templates, the catalogues and the URLs: not timed
    start = time.perf_counter()
    boss.get("/", **EN)
    boss.get("/tournaments/new/", **EN)
    print(f"warming up (the first requests after start): {time.perf_counter() - start:.2f} s")

    # the director creates a Swiss and registers the players
    page = w.request(boss, "the new tournament's form", "GET", "/tournaments/new/")
    f = form(page.content.decode(), lambda a: "settings-form" in a.get("class", ""))
    data = {k: v for k, v in f["fields"].items() if v is not None}
    data |= {"name": "Walk cup", "start_date": "2026-12-06", "format": "swiss", "rounds": "3",
             "series_length": "3", "variant": "long"}  # fmt: skip
    made = w.request(boss, "create the tournament", "POST", "/tournaments/new/", data)
    t = Tournament.objects.get(name="Walk cup")
    names = ["Jana Nováková", "Petr Kos", "Hana Šťastná", "Karel Dvořák",
             "Eva Malá", "Ota Veselý", "Iva Horáková", "Jan Novák"]  # fmt: skip
    entries = f"/tournaments/{t.pk}/players/"
    for name in names:
        page = w.request(boss, "the players' page", "GET", entries)
        f = form(page.content.decode(), lambda a: "new_name" in a["fields"])
        data = {k: v for k, v in f["fields"].items() if v is not None} | {"new_name": name}
        w.request(boss, "register a player", "POST", entries, data)
    assert t.entries.count() == len(names), "every player registered"
    assert made.status_code == 302

    # round 1
    w.request(boss, "pair round 1", "POST", f"/tournaments/{t.pk}/do/round/")
    series = list(Series.objects.filter(tournament=t, player2__isnull=False).order_by("table"))
    assert len(series) == 4, "round 1 paired"

    # a full record pasted by the director: game 1 of table 1
    first = series[0]
    white, black = first.player1, first.player2
    assert white is not None and black is not None
    page = w.request(boss, "the series page", "GET", f"/series/{first.pk}/")
    record = _record(white.name, black.name, 1)
    w.request(boss, "paste a full record", "POST", f"/series/{first.pk}/record/",
              {"number": "1", "record": record})  # fmt: skip

    # a player reports a whole series (its records) and the opponent confirms it
    second = series[1]
    p1, p2 = second.player1, second.player2
    assert p1 is not None and p2 is not None
    p1.user = User.objects.create_user("player1", password="x")
    p1.save(update_fields=["user"])
    p2.user = User.objects.create_user("player2", password="x")
    p2.save(update_fields=["user"])
    reporter, opponent = _signed_in(p1.user), _signed_in(p2.user)
    report_url = f"/series/{second.pk}/report/"
    page = w.request(reporter, "the report page", "GET", report_url)
    f = form(page.content.decode(), lambda a: a.get("id") == "report-file-form")
    records = "\n\n".join(
        _record(p1.name if n % 2 == 0 else p2.name, p2.name if n % 2 == 0 else p1.name, 10 + n)
        for n in range(2)
    )
    data = {k: v for k, v in f["fields"].items() if v is not None} | {"record": records}
    sent = w.request(reporter, "report the series", "POST", report_url, data)
    report = re.search(r"/reports/(\d+)/", sent.get("Location", "") or "")
    if report is None:  # the page says why (a record's colours, say): show it
        raise SystemExit(sent.content.decode()[:3000])
    w.request(opponent, "the report", "GET", f"/reports/{report.group(1)}/")
    w.request(opponent, "confirm the series", "POST", f"/reports/{report.group(1)}/confirm/")

    # the archive out and back in, as a copy
    archive = w.request(boss, "export the archive", "GET", f"/api/tournaments/{t.pk}/archive.json")
    upload = _file("walk-cup.json", archive.content)
    w.request(boss, "import the archive as a copy", "POST", "/jobs/import/tournament/",
              {"file": upload, "copy": "on"})  # fmt: skip

    # a game against the bot to its end
    player = _signed_in(User.objects.create_user("bot-player", password="x"))
    page = w.request(player, "the lobby", "GET", "/play/")
    f = form(page.content.decode(), lambda a: "play-start" in a.get("class", ""))
    data = {k: v for k, v in f["fields"].items() if v is not None}
    data |= {"level": "beginner", "colour": "white", "variant": "long"}
    w.request(player, "start a bot game", "POST", "/play/", data)
    game = BotGame.objects.latest("pk")
    path = f"/play/{game.pk}/"
    turns = 0
    while True:
        page = w.request(player, "the bot game", "GET", path)
        html = page.content.decode()
        if 'id="play-result"' in html:
            break
        f = form(html, lambda a: a.get("id") == "play-turns")
        data = {k: v for k, v in f["fields"].items() if v is not None}
        name, value = f["buttons"][0]
        w.request(player, "a bot game's turn", "POST", path, data | {name: value})
        turns += 1
    last = max(i for i, t in enumerate(w.timed) if t.what == "a bot game's turn")
    w.timed[last].what = "a bot game's last turn"  # the game ends: its analysis is a job
    game.refresh_from_db()
    print(f"the bot game: {turns} turns of the user's, {game.get_status_display()}")


def _file(name: str, content: bytes) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="application/json")


def _permissions() -> list[Any]:
    from django.contrib.auth.models import Permission

    return list(Permission.objects.filter(codename__in=["add_tournament"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--top", type=int, default=8, help="the slowest requests listed")
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    w = Walk()
    try:
        walk(w)
        from tournaments.models import Job

        waiting = list(Job.objects.values_list("kind", "status"))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    assert not settings.JOBS_INLINE
    writes = [t for t in w.timed if t.method == "POST"]
    print(f"{len(w.timed)} requests, {len(writes)} writes; jobs queued, not run: {waiting}")
    by_what: dict[str, list[float]] = {}
    for t in w.timed:
        by_what.setdefault(t.what, []).append(t.seconds)
    for what, times in by_what.items():
        print(f"  {what:32} {len(times):3} x  max {max(times) * 1000:7.0f} ms")
    print("slowest:")
    for t in sorted(w.timed, key=lambda t: -t.seconds)[: args.top]:
        print(f"  {t.seconds * 1000:7.0f} ms  {t.method:4} {t.path:40} {t.status}  {t.what}")
    worst = max(w.timed, key=lambda t: t.seconds)
    same = [t for t in w.timed if t.what == worst.what]
    nth = f", the {same.index(worst) + 1}. of {len(same)}" if len(same) > 1 else ""
    print(f"SLOWEST REQUEST: {worst.what} ({worst.method} {worst.path}{nth}) {worst.seconds:.2f} s")


if __name__ == "__main__":
    main()
