"""The admin in Czech: every page of the app's admin (the index, each model's list, its
change form and, where it can be added, its add form) signed in as a superuser has no
English left (tests/browser/language.py), and the same check finds the English of the
same page shown in English, so that it can fail. english_left looks for sentences; the
admin's labels are single words or two ("finished at"), so its labels, column heads,
filters, help texts and actions are also compared with the English page's: one that reads
the same in both languages was never translated. That comparison sees the English of
every English page (its labels not on the Czech one); english_left sees English on the
English admin pages that have sentences."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page

from tests.browser.language import english_left
from tests.browser.pages import session_cookie
from tests.tournaments.pages_data import recorded_game, round_robin
from tournaments.jobs.runner import job_start
from tournaments.models import (
    BotGame,
    Club,
    Correction,
    Deletion,
    Entry,
    Game,
    GameAnalysis,
    Job,
    Player,
    ProhibitedPair,
    RatingChange,
    Round,
    Series,
    SeriesReport,
    Submission,
    Tournament,
)
from tournaments.services.analysis import game_analyse
from tournaments.services.botgames import botgame_start
from tournaments.services.deletion import tournament_delete
from tournaments.services.people import club_create, player_update
from tournaments.services.results import game_correct
from tournaments.services.roster import prohibited_pair_add
from tournaments.services.series import series_next_white
from tournaments.services.setup import tournament_create
from tournaments.services.submissions import ReportRow, report_create, submission_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# the models of the admin, and whether it adds them (the others are shown, never added)
MODELS: dict[type[Any], bool] = {
    Club: True, Player: True, Tournament: True, ProhibitedPair: True, Entry: True,
    Round: True, Series: True, Game: False, Correction: False, Submission: False,
    SeriesReport: False, Job: False, GameAnalysis: False, BotGame: False, Deletion: False,
    RatingChange: False,
}  # fmt: skip
# the admin's own words on a page (none of them typed by people): the same on the Czech
# page as on the English one, they are English left
LABELS = """() => [...document.querySelectorAll(
  "#content h1, fieldset h2, .inline-group h2, label, .help, #result_list thead th .text, " +
  "#changelist-filter summary, #changelist-filter h3, select[name=action] option, " +
  ".object-tools a, .submit-row input[type=submit]"
)].map((el) => (el.value && el.tagName === "INPUT" ? el.value : el.innerText).trim())
  .filter((text) => /\\p{L}{2}/u.test(text))
  .map((text) => text.replace(/:$/, "").toLowerCase())"""
SAME = {"id", "rating"}  # the same in Czech (compared without case and colon)


def _one_of_each(boss: User) -> None:
    """One object of each model of the admin, made through the services."""
    t = round_robin(4, by=boss, name="Klubový pohár")
    game = recorded_game(t)
    game_analyse(game=game)
    quick = Game.objects.filter(series__tournament=t, record="").first()
    assert quick is not None
    game_correct(game=quick, by=boss, reason="špatně zapsáno", kind="mars")
    club = club_create(name="Vrhcáby Brno", city="Brno", country="CZ")
    player_update(player=game.white, club=club)
    open_series = Series.objects.filter(tournament=t, status="scheduled", player2__isnull=False)
    series = open_series.select_related("player1", "player2", "tournament").first()
    assert series is not None and series.player1 is not None
    eva = User.objects.create_user("eva", password="a-long-secret-1")
    player_update(player=series.player1, user=eva)
    white = series_next_white(series, []) or series.player1
    submission_create(series=series, by=eva, number=1, white=white, winner=white, kind="oin")
    others = open_series.exclude(pk=series.pk).exclude(player1=series.player1)
    other = others.exclude(player2=series.player1).select_related("player1").first()
    assert other is not None and other.player1 is not None
    petr = User.objects.create_user("petr", password="a-long-secret-1")
    player_update(player=other.player1, user=petr)
    starts = series_next_white(other, []) or other.player1
    report_create(series=other, by=petr, rows=[ReportRow(white=starts, winner=starts, kind="oin")])
    entries = list(Entry.objects.filter(tournament=t).select_related("player")[:2])
    prohibited_pair_add(tournament=t, player_a=entries[0].player, player_b=entries[1].player,
                        reason="sourozenci")  # fmt: skip
    job_start(kind="recompute", params={"tournament": t.pk}, by=boss, tournament=t)
    botgame_start(user=boss, level="beginner", colour="white")
    gone = tournament_create(name="Omylem založený", start_date=datetime.date(2026, 5, 2))
    tournament_delete(tournament=gone, by=boss, reason="založen omylem")


def admin_pages() -> list[str]:
    pages = ["/admin/", "/admin/tournaments/"]
    for model, adds in MODELS.items():
        obj = model._default_manager.order_by("pk").first()
        assert obj is not None, model
        base = f"/admin/tournaments/{model._meta.model_name}/"
        pages += [base, f"{base}{obj.pk}/change/"] + ([f"{base}add/"] if adds else [])
    return pages


def _english_left_in(page: Page, base: str, path: str, language: str) -> tuple[list[str], set[str]]:
    """English left on ``path`` asked for in ``language`` (the language cookie), the page
    taken for Czech, as an untranslated one would be; and the page's labels (LABELS)."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    url = base + path
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    assert page.locator("html").get_attribute("lang") == language, url
    page.evaluate("document.documentElement.lang = 'cs'")
    return english_left(page), set(page.evaluate(LABELS))


def test_no_admin_page_has_english_left_in_czech(live_server: Any, browser: Browser) -> None:
    boss = User.objects.create_superuser("boss", password="a-long-secret-1")
    _one_of_each(boss)
    context = browser.new_context(locale="cs", viewport={"width": 1280, "height": 900})
    context.add_cookies([session_cookie(boss, live_server.url)])  # type: ignore[list-item]
    page = context.new_page()
    page.set_default_timeout(30_000)
    found: dict[str, list[str]] = {}
    missed: list[str] = []
    sentences: list[str] = []
    for path in admin_pages():
        english, czech_labels = _english_left_in(page, live_server.url, path, "cs")
        found_in_english, english_labels = _english_left_in(page, live_server.url, path, "en")
        english += [
            f"not translated: {label}" for label in sorted(czech_labels & english_labels - SAME)
        ]
        if english:
            found[path] = english
        if not english_labels - czech_labels:
            missed.append(path)
        sentences += found_in_english
    context.close()
    report = "\n".join(f"{path}: {'; '.join(what)}" for path, what in found.items())
    assert not found and not missed, f"{report}\nno English found in English: {missed}"
    assert sentences, "english_left found no English on the English admin pages"
