"""The Czech catalogue (locale/cs): complete, up to date with the source, and compiled.

A string wrapped for translation but missing from django.po, an entry left untranslated or
fuzzy, or a .mo older than its .po shows English on the Czech pages: each test names the
msgids at fault. `make messages` fixes the last two; the first needs a translator.
"""

from __future__ import annotations

import gettext
import os
import re
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


# --- Czech grammar, where a rule can be written -----------------------------------------

# Czech says a count's noun in the form the number asks for: 1 série, 2-4 série, 5 sérií,
# 1,5 série. Only ngettext chooses by the number, so a message whose count stands before
# a counted noun in Czech must be a plural entry; a one-form entry says the noun first
# ("Zadané hry: %(n)s"). A limit ("nejvýše %(n)d znaků", a placeholder named max, value
# or limit) is a large number, always "znaků"; a number that names a thing ("Hra
# %(number)d": game 2) counts nothing.
COUNTED_NOUNS = (
    "série|sérií|sérii|partie|partií|hry|her|hráč|hráči|hráčů|hráčům|kolo|kola|kol|"
    "den|dny|dne|dní|dnů|znak|znaky|znaku|znaků|bod|body|bodu|bodů|účet|účty|účtů"
)
COUNT_BEFORE_NOUN = re.compile(
    rf"(?<!nejvýše )(?<!než )%\((?P<name>\w+)\)[sd] (?:{COUNTED_NOUNS})\b"
)
NOT_COUNTS = {"max", "value", "limit", "number"}


def test_a_count_before_its_noun_is_said_through_ngettext() -> None:
    """Before: "Pavouk je vytvořen: %(n)s sérií" said "4 sérií"."""
    offenders = [
        e.msgid
        for e in catalogue()
        if not e.obsolete and not e.msgid_plural
        for found in COUNT_BEFORE_NOUN.finditer(e.msgstr)
        if found["name"] not in NOT_COUNTS
    ]
    assert offenders == [], f"counts said without ngettext: {offenders}"


def test_plural_forms_say_the_noun_as_the_number_asks() -> None:
    """The header's forms: 0 one, 1 two to four, 2 a fraction, 3 five and more; a form
    that puts the count before a noun has that form's noun (1 série, 3 série, 8 sérií).
    A count is never a fraction: form 2 is not checked."""
    po = catalogue()
    assert "plural=(n == 1 && n % 1 == 0) ? 0 : (n >= 2 && n <= 4 && n % 1 == 0) ? 1: " \
        "(n % 1 != 0 ) ? 2 : 3" in po.metadata["Plural-Forms"]  # fmt: skip
    many = {"sérií", "partií", "hráčů", "kol", "dní", "dnů", "znaků", "bodů", "účtů", "her"}
    few = {"série", "partie", "hráči", "kola", "dny", "znaky", "body", "účty", "hry"}
    wrong = []
    for e in po:
        if e.obsolete or not e.msgid_plural:
            continue
        for index, form in e.msgstr_plural.items():
            for found in re.finditer(rf"%\(\w+\)[sd] ({COUNTED_NOUNS})\b", form):
                noun = found[1]
                if (int(index) == 3 and noun in few) or (int(index) in (0, 1) and noun in many):
                    wrong.append((e.msgid, int(index), noun))
    assert wrong == [], f"a plural form with another form's noun: {wrong}"


def test_a_gendered_word_has_each_gender_and_both_when_not_known() -> None:
    """A word said of a player by their grammatical gender (pgettext contexts "feminine"
    and "masculine", wording/gender.py) has both forms, and the context-less one, used
    when the gender is not known, writes both: odstoupila, odstoupil, odstoupil(a).
    Before: "Hana Šťastná (odstoupil)"."""
    translated = {(e.msgctxt or "", e.msgid): e.msgstr for e in catalogue() if not e.obsolete}
    gendered = {msgid for context, msgid in translated if context in ("feminine", "masculine")}
    assert "withdrawn" in gendered
    for msgid in gendered:
        feminine = translated.get(("feminine", msgid), "")
        masculine = translated.get(("masculine", msgid), "")
        neither = translated.get(("", msgid), "")
        assert feminine and masculine and feminine != masculine, msgid
        assert "(a)" in neither, (msgid, neither)
        assert neither.replace("(a)", "") == masculine, msgid
        assert neither.replace("(a)", "a") == feminine, msgid
