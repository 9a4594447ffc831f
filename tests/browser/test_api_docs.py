"""The API documentation pages in the browser: nothing they load or draw, as a reader
opens an operation, tries it out, signs in or downloads the schema, breaks the
Content-Security-Policy; Swagger UI's deep links work under it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# every refusal of the policy, as the page's securitypolicyviolation events report it
WATCH = """document.addEventListener("securitypolicyviolation", (e) => {
  (window.refused = window.refused || []).push(`${e.violatedDirective} ${e.blockedURI}`);
});"""
REFUSED = "window.refused || []"


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    context.add_init_script(WATCH)
    yield context
    context.close()


def _refused(page: Page) -> list[str]:
    page.wait_for_timeout(300)  # an image or font asked for by the last drawing
    return list(page.evaluate(REFUSED))


def test_swagger_ui_breaks_no_policy(live_server: Any, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(live_server.url + "/api/docs/")
    page.wait_for_load_state("networkidle")
    page.locator(".opblock-summary-control").first.click()
    page.get_by_role("button", name="Try it out").first.click()
    page.locator(".btn.authorize").first.click()
    page.locator(".modal-ux").wait_for()
    page.keyboard.press("Escape")
    assert _refused(page) == []


def test_redoc_breaks_no_policy(live_server: Any, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(live_server.url + "/api/redoc/")
    page.wait_for_load_state("networkidle")
    page.locator("redoc li label:visible").nth(2).click()
    with page.expect_download():
        page.get_by_role("link", name="Download").first.click()
    assert page.get_by_role("link", name="API docs by Redocly").count() == 1
    assert _refused(page) == []


def test_swagger_ui_deep_links_to_an_operation(live_server: Any, context: BrowserContext) -> None:
    """Opening an operation writes its address; that address opens it again. Its toggle
    button holds no link (axe: nested-interactive)."""
    page = context.new_page()
    page.goto(live_server.url + "/api/docs/")
    page.wait_for_load_state("networkidle")
    operation = page.locator(".opblock").nth(2)
    operation.locator(".opblock-summary-control").click()
    address = page.url
    assert "#/" in address
    assert operation.locator(".opblock-summary-control a[href]").count() == 0
    page.goto("about:blank")
    page.goto(address)
    page.wait_for_load_state("networkidle")
    assert page.locator(".opblock.is-open").count() == 1
    opened = page.locator(".opblock.is-open .opblock-summary-path").get_attribute("data-path")
    assert opened == operation.locator(".opblock-summary-path").get_attribute("data-path")
    assert page.locator(".opblock-summary-control a[href]").count() == 0
    assert _refused(page) == []
