"""The rules box of a tournament page says each game's rules in sentences that come from
data (tournaments/wording/rule_options.py: the variant's declared facts and the settings its game
has), not from a template that tells variants apart by name (STYLE 15)."""

from __future__ import annotations

import datetime
import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.engine import variant_named
from tournaments.models import Tournament
from tournaments.services.setup import tournament_create
from tournaments.wording import rule_options
from tournaments.wording.rule_options import (
    SAID_WITH,
    SETTING_SENTENCES,
    TOURNAMENT_OPTION_NAMES,
    VARIANT_FACTS,
    rule_sentences,
)

EN_BLOCK = "A six-point block is checked {}; it needs an opponent checker {}."
CS_BLOCK = "Blok šesti polí se kontroluje {}; musí před ním být soupeřův kámen {}."

# (variant, settings, English sentences, Czech sentences) - each exactly, in order
CASES: list[tuple[str, dict[str, Any], list[str], list[str]]] = [
    ("long", {}, [
        "Mars counts double.",
        EN_BLOCK.format("at the end of the turn", "anywhere ahead"),
    ], [
        "Mars se počítá dvojnásobně.",
        CS_BLOCK.format("na konci tahu", "kdekoli před ním"),
    ]),
    ("long", {"mars": False, "last_roll": True, "block_check": "every-step",
              "block_ahead": "in-home"}, [
        "Mars counts as an oin.",
        "The right of last roll applies: a game can be drawn.",
        EN_BLOCK.format("after every step", "in the opponent's home"),
    ], [
        "Mars se počítá jako oin.",
        "Platí právo posledního hodu: hra může skončit remízou.",
        CS_BLOCK.format("po každém kroku", "v soupeřově domě"),
    ]),
    ("short", {}, [
        "Mars counts double, koks triple.",
        "The lot is white's first roll (no opening double).",
    ], [
        "Mars se počítá dvojnásobně, koks trojnásobně.",
        "Los je zároveň prvním hodem bílého (první hod nemůže být dublet).",
    ]),
    ("short", {"mars": False, "cube": True, "opening_roll": "fresh"}, [
        "Every win counts 1 point (no mars, no koks).",
        "After the lot white rolls afresh (an opening double is allowed).",
        "The doubling cube is used; in series to N points the Crawford rule applies.",
    ], [
        "Každá výhra se počítá za 1 bod (bez marsu a koksu).",
        "Po losu hází bílý znovu (dublet v prvním hodu je povolen).",
        "Hraje se se zdvojovací kostkou; v sériích na N bodů platí Crawfordovo pravidlo.",
    ]),
    ("lurc", {}, [
        "Black moves first.",
        "Every win is 1 point (no mars).",
    ], [
        "Začíná černý.",
        "Každá výhra je za 1 bod (bez marsu).",
    ]),
]  # fmt: skip
IDS = ["long", "long-changed", "short", "short-changed", "lurc"]
# every sentence any case says, to check that none is said where it does not belong
EVERY_SENTENCE = {s for case in CASES for s in case[2] + case[3]}


def _rules_box(client: Client, t: Tournament, language: str) -> str:
    """The text of the page's rules box, tags dropped and spaces collapsed."""
    response = client.get(
        reverse("tournaments:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    page = response.content.decode()
    box = page[page.index('<details class="settings"') : page.index("</details>")]
    text = html.unescape(" ".join(part.split(">", 1)[-1] for part in box.split("<")))
    return " ".join(text.split())


@pytest.mark.django_db
@pytest.mark.parametrize(("variant", "settings", "english", "czech"), CASES, ids=IDS)
def test_the_rules_box_says_the_games_rules_in_english_and_czech(
    client: Client, variant: str, settings: dict[str, Any], english: list[str], czech: list[str]
) -> None:
    t = tournament_create(
        name="Cup", start_date=datetime.date(2026, 5, 1), variant=variant, **settings
    )
    for language, said in (("en", english), ("cs", czech)):
        box = _rules_box(client, t, language)
        assert " ".join(said) in box, (language, box)
        stray = [s for s in EVERY_SENTENCE - set(said) if s in box]
        assert stray == [], (language, stray)


@pytest.mark.parametrize(("variant", "settings", "english", "czech"), CASES, ids=IDS)
def test_the_sentences_come_from_the_variant_and_its_settings(
    variant: str, settings: dict[str, Any], english: list[str], czech: list[str]
) -> None:
    t = Tournament(variant=variant, **settings)
    with translation.override("en"):
        assert rule_sentences(t) == english


def test_every_tournament_option_has_a_sentence() -> None:
    """An option the engine gains needs a sentence (or a place in another's)."""
    said = set(SETTING_SENTENCES) | set(SAID_WITH)
    assert said == set(TOURNAMENT_OPTION_NAMES)
    assert set(SAID_WITH.values()) <= set(SETTING_SENTENCES)


def test_a_new_variant_is_said_from_what_it_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant the app has never seen - Lurč's facts with the cube - gets its sentences
    from its declaration, with no template or label change."""
    lurc = variant_named("lurc")  # a frozen value (engine.values): made anew with changes
    fields: dict[str, Any] = {name: getattr(lurc, name) for name in lurc._fields}
    new = type(lurc)(**{**fields, "name": "new", "cube": True})
    monkeypatch.setattr(rule_options, "variant_named", lambda name: new)
    with translation.override("en"):
        said = rule_sentences(Tournament(variant="lurc", cube=True))
    assert said == [
        "Black moves first.",
        "Every win is 1 point (no mars).",
        "The doubling cube is used; in series to N points the Crawford rule applies.",
    ]
    assert all(hasattr(new, attr) for attr, _value, _text in VARIANT_FACTS)
