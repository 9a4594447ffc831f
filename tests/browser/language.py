"""English left on a page shown in Czech, for the checks of every page
(tests/browser/test_accessibility.py)."""

from __future__ import annotations

from playwright.sync_api import Page

# English left on a Czech page: a visible text (or an aria-label, title, placeholder, alt)
# outside an element marked as English (lang="en": the API documentation, the language
# switch) with two or more English words that Czech never uses, as a msgid the catalogue
# lacks shows. Names typed by people may be English: one such word alone is not a finding.
ENGLISH_LEFT = """() => {
  const WORDS = new Set(["the", "is", "are", "not", "of", "with", "this", "your", "has",
    "have", "was", "from", "cannot", "must", "please", "file", "for", "you", "than",
    "larger", "there", "which", "been", "will", "should", "only", "into"]);
  const SKIP = "script, style, code, pre, textarea, noscript, svg";
  const english = (text) => {
    const found = new Set(text.toLowerCase().match(/\\p{L}+/gu)?.filter((w) => WORDS.has(w)));
    return found.size >= 2;
  };
  const czech = (el) => {
    const marked = el.closest("[lang]");
    return !marked || marked.getAttribute("lang").startsWith("cs");
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(SKIP) || !czech(el) || !el.checkVisibility()) continue;
    if (english(node.textContent)) found.push(node.textContent.trim().slice(0, 120));
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (!czech(el)) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const text = el.getAttribute(name);
      if (text && english(text)) found.push(`${name}="${text.slice(0, 120)}"`);
    }
  }
  return [...new Set(found)].slice(0, 8);
}"""


def english_left(page: Page) -> list[str]:
    """English text on a page shown in Czech (:data:`ENGLISH_LEFT`)."""
    return [f"English in Czech: {text}" for text in page.evaluate(ENGLISH_LEFT)]
