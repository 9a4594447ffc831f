"""The demo loader says its refusals in the command's language: Django runs
a command in the active language (settings.LANGUAGE_CODE, Czech, unless told otherwise),
as every command of this app; the demo's broken files are refused in Czech or English."""

from __future__ import annotations

import functools
import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from tournaments.management.demo import DEMO_DIR, demo_load
from tournaments.models import Club

CLUB = "Klub vrhcábů Brno"


def _broken_demo(tmp_path: Path) -> Path:
    """The demo's files with one game naming a pairing the demo does not have."""
    broken = tmp_path / "demo"
    shutil.copytree(DEMO_DIR, broken)
    nrd = broken / "podzim-2026.nrd"
    text = nrd.read_text(encoding="utf-8")
    nrd.write_text(re.sub(r'\[Series "[^"]*"\]', '[Series "no-such-key"]', text, count=1))
    return broken


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["cs", "en"])
def test_load_demo_refuses_broken_files_in_the_commands_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    from tournaments.management.commands import load_demo

    broken = _broken_demo(tmp_path)
    monkeypatch.setattr(load_demo, "demo_load", functools.partial(demo_load, directory=broken))
    with translation.override(language), pytest.raises(CommandError) as refused:
        call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    message = str(refused.value)
    assert '[Series "no-such-key"]' in message and "podzim-2026.nrd" in message
    english = ("the demo was not loaded", "game 1", "line", "is not the key of a pairing")
    if language == "en":
        assert all(words in message for words in english), message
    else:
        assert not any(words in message for words in english), message
    assert not Club.objects.filter(name=CLUB).exists()  # all or nothing
