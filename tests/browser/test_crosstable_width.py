"""The crosstable of a twelve-player round robin and of a Swiss fits a 1280 px wide
window without scrolling sideways (before: it scrolled, its tie-break headings and long
names kept on one line); on a phone it scrolls in its own box, as before."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.tournaments.pages_data import round_robin
from tournaments.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _overflow(browser: Browser, url: str, width: int) -> tuple[int, int]:
    context = browser.new_context(locale="en-GB", viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(url)
    box = page.locator("table.crosstable").locator("xpath=..")
    sizes = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    context.close()
    return int(sizes[0]), int(sizes[1])


def test_a_twelve_player_crosstable_fits_1280_px(live_server: Any, browser: Browser) -> None:
    t = round_robin(12, name="Krajský přebor v dlouhých vrhcábech")
    for number, player in enumerate(Player.objects.order_by("pk"), start=1):
        player.name = f"Bedřich Vondráček-Kratochvíl {number}"
        player.save(update_fields=["name"])
    t.cache_version += 1
    t.save(update_fields=["cache_version"])
    scroll, client = _overflow(browser, f"{live_server.url}/tournaments/{t.pk}/", 1280)
    assert scroll <= client, (scroll, client)
