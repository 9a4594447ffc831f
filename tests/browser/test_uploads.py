"""The refused uploads of tests/browser/pages.py (a file that is not UTF-8 text, one over
the limit) are posted as files by the browser and answered with their refusal, so the
accessibility and language checks of every page see those answers; the language check
(language.english_left) finds the English of the English pages."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.browser.language import english_left
from tests.browser.pages import (
    DIRECTOR,
    NOT_UTF8,
    PAGES,
    Upload,
    build_site,
    open_as,
    open_page,
    pages_for,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFUSALS = {"en": ("The file is not UTF-8 text.", "The file is larger than 1 MB."),
            "cs": ("Soubor není text v UTF-8.", "Soubor je větší než 1 MB.")}  # fmt: skip


def test_every_kind_of_upload_refusal_is_among_the_pages() -> None:
    values = [v for _roles, _url, *posted in PAGES for p in posted for v in p.values()]
    uploads = [u for u in values if isinstance(u, Upload)]
    assert {u.head == NOT_UTF8 for u in uploads} == {True, False}


@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_refused_uploads_show_their_refusal(
    live_server: Any, browser: Browser, language: str
) -> None:
    site = build_site()
    context = open_as(browser, site, DIRECTOR, language=language, width=1280, base=live_server.url)
    page = context.new_page()
    visits = [v for v in pages_for(DIRECTOR, site.values) if v.posted and any(
        isinstance(value, Upload) for value in v.posted.values())]  # fmt: skip
    assert len(visits) >= 5
    not_utf8, too_large = REFUSALS[language]
    for visit in visits:
        response, problems = open_page(page, live_server.url, visit)
        assert problems == [] and response is not None and response.status == 400, str(visit)
        assert visit.posted is not None
        upload = next(v for v in visit.posted.values() if isinstance(v, Upload))
        expected = not_utf8 if upload.head == NOT_UTF8 else too_large
        assert page.get_by_text(expected).count() == 1, (str(visit), page.content()[:3000])
        # the language check of every Czech page finds none here, and finds the English
        # page's words once the page claims to be Czech (as an untranslated one would)
        if language == "cs":
            assert english_left(page) == [], str(visit)
        page.evaluate("document.documentElement.lang = 'cs'")
        assert bool(english_left(page)) == (language == "en"), (str(visit), english_left(page))
    context.close()
