"""The header's language switch, which carries no CSRF token (tournaments/views/language.py):
a visitor switches from a cached public page and back, with JavaScript off; a form on
another site cannot switch it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.tournaments.pages_data import round_robin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_visitor_switches_the_language_without_javascript(
    live_server: Any, browser: Browser
) -> None:
    t = round_robin(4)
    path = f"/tournaments/{t.pk}/"
    context = browser.new_context(java_script_enabled=False, locale="cs")
    page = context.new_page()
    page.goto(live_server.url + path)  # cached by now? the second visit is, below
    page.goto(live_server.url + path)
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    assert not [c for c in context.cookies() if c["name"] == "csrftoken"]
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.url == live_server.url + path
    page.get_by_role("button", name="Česky").click()
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    context.close()


def test_another_sites_form_cannot_switch_the_language(live_server: Any, browser: Browser) -> None:
    context = browser.new_context(locale="cs")
    page = context.new_page()
    page.goto(live_server.url + "/")
    # a page of another site, served by the browser's router, posting the switch here
    form = (
        f'<form method="post" action="{live_server.url}/i18n/setlang/">'
        '<input type="hidden" name="language" value="en"><button>go</button></form>'
    )
    page.route(
        "http://evil.example/", lambda route: route.fulfill(body=form, content_type="text/html")
    )
    page.goto("http://evil.example/")
    with page.expect_navigation():
        page.get_by_role("button", name="go").click()
    assert page.url == live_server.url + "/i18n/setlang/"  # refused: 403, no redirect
    assert "django_language" not in {c["name"] for c in context.cookies()}
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    context.close()
