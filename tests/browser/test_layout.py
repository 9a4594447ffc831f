"""No page is wider than a phone: at 390 px nothing sticks out sideways, for every page
in tests/browser/pages.py, seen as anonymous, player and director (Czech and English).
Only elements marked as scrolling containers (class "scroll", with a visible "scroll
sideways" hint before them) may scroll sideways."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.pages import ROLES, SEEN_AS, build_site, check_every_page, report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# what sticks out (outside marked scrolling containers), and what scrolls unmarked
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


@pytest.mark.parametrize("role", ROLES)
def test_no_page_is_wider_than_a_phone(live_server: Any, browser: Browser, role: str) -> None:
    """Each page once per role, in the role's language (pages.SEEN_AS: Czech for
    visitors and the director, English for the player), always at phone width."""

    def overflow(page: Page) -> list[str]:
        return list(page.evaluate(OVERFLOW))

    language = SEEN_AS[role][0]
    found = check_every_page(
        browser, build_site(), live_server.url, overflow, language=language, width=390,
        roles=(role,),
    )  # fmt: skip
    assert not found, report(found)
