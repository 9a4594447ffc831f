"""The Czech catalogue (locale/cs): complete, up to date with the source, and compiled.

A string wrapped for translation but missing from django.po, an entry left untranslated or
fuzzy, or a .mo older than its .po shows English on the Czech pages: each test names the
msgids at fault. `make messages` fixes the last two; the first needs a translator.
"""

from __future__ import annotations

import gettext
import os
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
PO = LOCALE / "cs" / "LC_MESSAGES" / "django.po"
MO = LOCALE / "cs" / "LC_MESSAGES" / "django.mo"
# The files makemessages reads for the "django" domain (its default extensions).
SOURCE_SUFFIXES = {".py", ".html", ".txt"}

Key = tuple[str, str, str]  # msgctxt, msgid, msgid_plural


def key(entry: polib.POEntry) -> Key:
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def catalogue() -> polib.POFile:
    return polib.pofile(str(PO))


def test_every_entry_is_translated_and_none_is_fuzzy() -> None:
    po = catalogue()
    assert po.metadata["Language"] == "cs"
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    untranslated = [e.msgid for e in po.untranslated_entries()]
    obsolete = [e.msgid for e in po.obsolete_entries()]
    assert fuzzy == [], f"fuzzy entries: {fuzzy}"
    assert untranslated == [], f"untranslated entries: {untranslated}"
    assert obsolete == [], f"obsolete entries (remove them): {obsolete}"
    # Czech plurals: every form of the header's nplurals is filled.
    nplurals = int(po.metadata["Plural-Forms"].split("nplurals=")[1].split(";")[0])
    short = [e.msgid for e in po if e.msgid_plural and len(e.msgstr_plural) != nplurals]
    assert short == [], f"plural entries without {nplurals} forms: {short}"


def copy_sources(target: Path) -> None:
    """The project's translatable files as makemessages walks them (no hidden folders,
    so no .venv), and a copy of locale/ for it to merge into."""
    for dirpath, dirnames, filenames in os.walk(ROOT):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "locale"]
        for name in filenames:
            if Path(name).suffix in SOURCE_SUFFIXES:
                dest = target / here.relative_to(ROOT) / name
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(here / name, dest)
    shutil.copytree(LOCALE, target / "locale")


def test_catalogue_holds_every_string_of_the_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """makemessages over a copy of the project finds no msgid that django.po lacks."""
    copy_sources(tmp_path)
    monkeypatch.chdir(tmp_path)
    with override_settings(LOCALE_PATHS=[str(tmp_path / "locale")]):
        call_command("makemessages", locale=["cs"], keep_pot=True, verbosity=0)
    pot = polib.pofile(str(tmp_path / "locale" / "django.pot"))
    found = {key(e) for e in pot}
    assert found, "makemessages found no strings at all"
    committed = {key(e) for e in catalogue() if not e.obsolete}
    missing = sorted(found - committed)
    assert missing == [], f"strings in the source but not in {PO.relative_to(ROOT)}: {missing}"


def test_mo_is_compiled_from_the_po() -> None:
    with MO.open("rb") as f:
        compiled = dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]
    compiled.pop("", None)  # the header
    expected: dict[object, str] = {}
    for e in catalogue().translated_entries():
        msgid = f"{e.msgctxt}\x04{e.msgid}" if e.msgctxt else e.msgid
        if e.msgid_plural:
            for i, form in e.msgstr_plural.items():
                expected[(msgid, int(i))] = form
        else:
            expected[msgid] = e.msgstr
    stale = sorted(str(k) for k in expected.keys() ^ compiled.keys())
    assert stale == [], f"msgids in only one of django.po and django.mo: {stale}"
    differ = sorted(str(k) for k in expected if expected[k] != compiled[k])
    assert differ == [], f"django.mo translates these differently from django.po: {differ}"
