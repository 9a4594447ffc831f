"""The analysis in the replay, in Chromium (docs/analysis_pages.md, docs/play.md): a
spectator opens an analysed game in Czech and English, steps to a turn marked as an
error and sees its mark and the best play on the second board, steps on and the second
board goes; the chart's dots step the replay; a finished game against the bot replays
the same way. The pages this adds pass axe-core in both languages (the admin's also in
the dark colour scheme) with no English left on the Czech ones. With SCREENSHOTS=1 the
game page's analysis, the replay at an error and the bot's page are saved to
docs/screenshots/ (analysis-*.png) at 1280 and 390 px."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.language import english_left
from tests.browser.pages import (
    DIRECTOR,
    OVERFLOW,
    PLAYER,
    bot_games,
    build_site,
    check_every_page,
    report,
    session_cookie,
)
from tests.tournaments.analysis_data import a_series, record_for
from tournaments.models import Game
from tournaments.services.analysis import game_analyse
from tournaments.services.results import game_enter_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# the pages of tests/browser/pages.py this adds or changes: (address begins, role, scheme)
CHECKED: tuple[tuple[str, str, Literal["light", "dark"]], ...] = (
    ("/play/", PLAYER, "light"),
    ("/games/", PLAYER, "light"),
    ("/admin/tournaments/botgame/", DIRECTOR, "light"),
    ("/admin/tournaments/botgame/", DIRECTOR, "dark"),  # the admin follows the scheme
)
SHOTS = os.environ.get("SCREENSHOTS") == "1"
OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WORDS = {
    "en": {"best": "Best:", "marks": ("doubtful move", "bad move", "very bad move")},
    "cs": {"best": "Nejlepší:", "marks": ("pochybný tah", "špatný tah", "velmi špatný tah")},
}


def shot(page: Page, name: str, part: Locator | None = None) -> None:
    """The page (or ``part``) at desktop and phone width, when SCREENSHOTS=1."""
    if not SHOTS:
        return
    OUT.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or {"width": 1280, "height": 900}
    for label, (width, height) in {"desktop": (1280, 900), "phone": (390, 844)}.items():
        page.set_viewport_size({"width": width, "height": height})
        target = str(OUT / f"analysis-{name}-{label}.png")
        if part is not None:
            part.screenshot(path=target)
        else:
            page.screenshot(path=target, full_page=True)
    page.set_viewport_size(size)


def _analysed_game(settings: Any) -> Game:
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    game = game_enter_record(series=series, record=record_for(series, 11))
    game_analyse(game=game)
    return game


def _watch(page: Page) -> list[str]:
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: console.append(str(e)))
    return console


def _step_to_an_error(page: Page, language: str) -> None:
    """From the start, to the first turn marked as an error, through the move list;
    its mark and the best play are shown, and they go at the next unmarked turn."""
    words = WORDS[language]
    best = page.locator("#best-turn")
    expect(page.locator("#replay")).to_have_class("replay enhanced")
    expect(best).to_be_hidden()
    marked = page.locator("#moves li.marked-turn a").first
    mark = marked.locator(".mark").inner_text()
    assert mark.split(",")[0] in words["marks"] and mark.endswith(" mp"), mark
    marked.click()
    expect(best).to_be_visible()
    expect(page.locator("#best-turn-caption")).to_contain_text(words["best"])
    expect(page.locator("#turn-info")).to_contain_text(mark)
    played = page.locator("#board g.pieces").inner_html()
    assert page.locator("#best-board g.pieces").inner_html() not in ("", played)
    box, best_box = page.locator("#board").bounding_box(), best.bounding_box()
    assert box is not None and best_box is not None
    viewport = page.viewport_size
    if viewport is not None and viewport["width"] >= 768:  # beside the board played
        assert best_box["x"] >= box["x"] + box["width"] - 1
    turn = int(marked.get_attribute("data-turn") or 0)
    page.keyboard.press("Home")
    expect(best).to_be_hidden()
    page.locator(f'#equity-chart a[data-turn="{turn}"]').click()  # the chart's dot
    expect(page.locator("#moves a[aria-current]")).to_have_attribute("data-turn", str(turn))
    expect(best).to_be_visible()
    assert f"turn={turn}" in page.url


@pytest.mark.parametrize(("language", "width"), [("cs", 390), ("en", 1280)])
def test_a_spectator_steps_to_an_error_and_sees_the_best_play(
    live_server: Any, browser: Browser, settings: Any, language: str, width: int
) -> None:
    game = _analysed_game(settings)
    context = browser.new_context(locale=language, viewport={"width": width, "height": 900})
    page = context.new_page()
    console = _watch(page)
    page.goto(f"{live_server.url}/games/{game.pk}/?turn=0")
    _step_to_an_error(page, language)
    assert not page.evaluate(OVERFLOW)
    if language == "cs":
        assert not english_left(page)
    else:
        shot(page, "replay-error", page.locator("#replay"))
        shot(page, "game", page.locator("#analysis"))
    assert not console, console
    context.close()


def test_a_finished_game_against_the_bot_replays_with_its_marks(
    live_server: Any, browser: Browser
) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    _playing, done = bot_games(ann)
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.add_cookies([session_cookie(ann, live_server.url)])  # type: ignore[list-item]
    page = context.new_page()
    console = _watch(page)
    page.goto(f"{live_server.url}/play/{done.pk}/?turn=0")
    expect(page.locator("#play-result")).to_contain_text("The bot won (mars, resignation)")
    _step_to_an_error(page, "en")
    assert not [v["id"] for v in Axe().run(page).response["violations"]]
    shot(page, "bot")
    assert not console, console
    context.close()


def test_the_pages_of_the_analysis_and_the_bot_pass_axe_in_both_languages(
    live_server: Any, browser: Browser
) -> None:
    site = build_site()
    found: dict[str, list[str]] = {}
    for language, width in (("cs", 390), ("en", 1280)):

        def violations(page: Page, language: str = language) -> list[str]:
            found = [f"{v['id']} ({v['impact']})" for v in Axe().run(page).response["violations"]]
            return found + (english_left(page) if language == "cs" else [])

        for only, role, scheme in CHECKED:
            seen = check_every_page(
                browser, site, live_server.url, violations, language=language, width=width,
                only=only, roles=(role,), color_scheme=scheme,
            )  # fmt: skip
            found |= {f"{language} {scheme} {where}": v for where, v in seen.items()}
    assert not found, report(found)
